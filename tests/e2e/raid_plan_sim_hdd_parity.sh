#!/usr/bin/env bash
# raid_plan_sim_hdd_parity.sh — one part of raid_plan_sim.sh (the plan against
# characterize of the simulated arrays): hdd 0 5 6.
exec "$(dirname "$0")/raid_plan_sim.sh" hdd 0 5 6
