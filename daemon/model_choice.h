/*
 * model_choice.h - which model the daemon counts with on this host.
 *
 * The CPU is named by what it says of itself (CPUID vendor, family, model
 * and stepping on x86; MIDR_EL1 on Arm, lib/perfdb/host_cpu.h) and matched
 * against Linux perf's own map of CPU ids to tables (perfdb_maps), as perf
 * does; libpfm4 is not asked which CPU this is.  A CPU perf maps to a
 * table gets that table's model, or our hand-written model of it where we
 * have one and libpfm4 (which encodes its events) knows the CPU; a CPU with
 * a PMU but no table gets a generic hardware model; no PMU, the software
 * model.
 */
#ifndef STACKD_MODEL_CHOICE_H
#define STACKD_MODEL_CHOICE_H

#include "lib/model/model.h"

#include <stddef.h>

/* The model name asks for ("auto": as above, for this host).  why says
 * what was chosen and why.  0, or -ENOENT for a name no model has. */
int model_choose(const char *name, const struct model **ret, char *why, size_t len);

/* This host's CPU as perf's PERF_CPUID names it, into cpuid ("" when
 * unknown), and the slots per cycle its core PMU reports (caps/slots:
 * Arm's PMMIR_EL1.SLOTS, perf's #slots; 0 when it reports none), returned:
 * facts formulas need, recorded for readers (meta "cpuid", "pmu_slots"). */
unsigned model_choice_host_facts(char *cpuid, size_t len);

#endif
