#!/usr/bin/env bash
# raid_plan_sim_hdd_mirror.sh — one part of raid_plan_sim.sh (the plan against
# characterize of the simulated arrays): hdd 1 10.
exec "$(dirname "$0")/raid_plan_sim.sh" hdd 1 10
