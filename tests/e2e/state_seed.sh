#!/usr/bin/env bash
# state_seed.sh — `iomodel state` on the whole simulated SuperTalent GX against the
# seed's figures (fresh 13.1, used 6.93, after TRIM 12.9 MB/s), each state to SNIA
# PTS steady state. Numeric agreement: suite accuracy (the release build only);
# state.sh covers the command on every build.
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# --- the seed's shape on sim:supertalent-gx (clean 13.1, used 6.93, trimmed 12.9 MB/s) ---
"$IOMODEL" state --target sim:supertalent-gx --destroy-data --json >"$work/gx.json" 2>"$work/err"
ok "state on sim:supertalent-gx runs" [ $? -eq 0 ]
used=$(json "$work/gx.json" 'd["used_over_fresh"]')
trimmed=$(json "$work/gx.json" 'd["trimmed_over_fresh"]')
clean=$(json "$work/gx.json" 'd["states"][0]["mb_s"]')
echo "supertalent-gx: clean $clean MB/s, used/clean $used, trimmed/clean $trimmed (seed 13.1, 0.529, 0.985)"
ok "used/clean within 0.1 of the seed's 0.529" python3 -c "import sys; sys.exit(abs($used - 6.93/13.1) > 0.1)"
ok "trimmed/clean within 0.1 of the seed's 0.985" python3 -c "import sys; sys.exit(abs($trimmed - 12.9/13.1) > 0.1)"
ok "every state reached steady state, each with its rounds" python3 - "$work/gx.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["state"] for s in d["states"]] == ["fresh", "used", "trimmed"]
for s in d["states"]:
    ss = s["steady_state"]
    assert ss["reached"] and 5 <= ss["round"] <= 25 and len(s["rounds"]) == ss["round"], s
    assert ss["range_pct"] <= 20 and ss["excursion_pct"] <= 10, ss
PY
finish
