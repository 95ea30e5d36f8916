#!/usr/bin/env bash
# raid_plan_sim_ssd.sh — one part of raid_plan_sim.sh (the plan against
# characterize of the simulated arrays): ssd.
exec "$(dirname "$0")/raid_plan_sim.sh" ssd
