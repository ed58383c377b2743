/*
 * peer_unknown.h - PEER_UNKNOWN, the uid of a peer that could not be
 * found, in a header of its own: peer.h and peer_procnet.h (peer.c's
 * fallback, which cannot include peer.h without a loop) share it.
 */
#ifndef STACKD_PEER_UNKNOWN_H
#define STACKD_PEER_UNKNOWN_H

#define PEER_UNKNOWN (-2)   /* not local, or not found */

#endif
