#!/bin/sh
# The context-switch sampler also works as a group *member* under another
# leader (the layout Intel perf-metrics groups need, where `slots` must
# lead): the same task-clock and switch checks pass with --switch-event member.
. "$(dirname "$0")/lib.sh"
need_root
here=$(dirname "$0")
STACKD_ARGS="--switch-event member" sh "$here/020-task-clock.sh" || exit $?
STACKD_ARGS="--switch-event member" sh "$here/030-switches.sh" || exit $?
exit 0
