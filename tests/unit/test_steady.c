/* test_steady.c — the SNIA PTS steady-state rule (suite/steady.h). */
#include <math.h>

#include "check.h"
#include "suite/steady.h"

static void rule_checks(struct check_state *st)
{
	struct steady_rule rule;
	struct steady_eval ev;
	/* flat within 10 %: steady */
	const double flat[] = { 1000, 1050, 980, 1020, 1000 };
	/* range 25 % of the mean: not steady */
	const double wide[] = { 900, 1150, 1000, 1000, 1000 };
	/* a steady decline: range 16 % < 20 %, excursion 16 % > 10 % -> not steady */
	const double falling[] = { 1080, 1040, 1000, 960, 920 };
	/* decay, then flat: steady only once the window holds flat rounds */
	const double decay[] = { 3000, 2000, 1500, 1200, 1010, 1000, 990, 1005, 1000, 995 };

	steady_rule_snia(&rule);
	CHECK(st, rule.window == 5 && rule.max_rounds == 25, "PTS numbers");
	steady_state_check(&rule, flat, 5, &ev);
	CHECK(st, ev.reached && ev.round == 5 && fabs(ev.mean - 1010) < 1e-9, "flat: %d %zu %g",
	      ev.reached, ev.round, ev.mean);
	steady_state_check(&rule, flat, 4, &ev);
	CHECK(st, !ev.reached, "four rounds are not a window");
	steady_state_check(&rule, wide, 5, &ev);
	CHECK(st, !ev.reached && fabs(ev.range_frac - 250.0 / 1010) < 1e-9, "wide: %g",
	      ev.range_frac);
	steady_state_check(&rule, falling, 5, &ev);
	/* slope -40 per round, 4 steps: 160 of a mean of 1000 */
	CHECK(st, !ev.reached && ev.range_frac <= 0.2 && fabs(ev.excursion_frac - 0.16) < 1e-9,
	      "falling: range %g excursion %g", ev.range_frac, ev.excursion_frac);
	for (size_t n = 5; n <= 10; n++) {
		steady_state_check(&rule, decay, n, &ev);
		if (ev.reached)
			break;
	}
	CHECK(st, ev.reached && ev.round == 9, "decay: steady from round 9 (rounds 5..9; 4..8 spans 20.2 %%): %zu",
	      ev.round);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	rule_checks(&st);
	return check_exit(&st, "steady");
}
