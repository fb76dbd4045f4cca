#!/bin/bash
# explain-differential.sh: `corral explain` against corral's sandbox on
# every scenario of the differential suite, on the host: see
# differential.sh --explain.  Where bpf is not set up corral's sandbox is
# the Landlock engine, whose answers the guest checks equal bpf's on the
# same table.
exec bash "$(dirname "$0")/../integration/differential.sh" --explain "$@"
