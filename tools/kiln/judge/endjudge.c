/* SPDX-License-Identifier: MIT */
/*
 * Description: the rule of how a disk was left (end=), the end signal's
 * judge hook (results/end_out.c): what the end step did, read back,
 * becomes a reason of the disk's verdict.
 */
#include "engine/endstep.h"
#include "engine/sancmd.h"
#include "judge/endjudge.h"
#include "judge/record.h"

/*
 * How the disk was left (see endjudge.h): kiln's units still there where
 * zeros were written or promised, or a disk that stopped answering, FAIL it; a
 * device that refused the step WARNs it (its burn stands, its state is
 * not the one asked for). Under profile erase the step is all the disk
 * had: only a step DONE is "erased"; a step only said (a discard that
 * promises nothing, no sanitize command), a disk left as it is, a step
 * interrupted or never made WARNs "not erased"; one refused FAILs it.
 */
void endjudge_disk(struct record_disk *d, int final)
{
	const struct endstep *e = &d->end;
	struct judge *j = &d->j;
	int erase = d->ep.mode == ENGINE_NONE;
	const char *m = endstep_method_name(e->method);

	if (erase && e->state == ENDSTEP_DONE && e->unreached[0])
		/* Something hidden was not reached: not all of it. */
		judge_reason(j, JUDGE_WARN, "not erased whole (end=%s): %s; "
			     "not reached: %s", m, e->why, e->unreached);
	else if (erase && e->state == ENDSTEP_DONE && endstep_loose(e))
		/* No unit of this run was there to be found gone. */
		judge_reason(j, JUDGE_WARN, "not proven erased (end=%s): the "
			     "read-back cannot tell (%s leaves what the vendor "
			     "chose): %s", m,
			     sancmd_method_name(endstep_applied(e)), e->why);
	else if (erase && e->state == ENDSTEP_DONE)
		judge_reason(j, JUDGE_PASS, "erased (end=%s): %s", m, e->why);
	else if (erase && e->state == ENDSTEP_SAID)
		/* Said, not read back as asked: no erase is proven. */
		judge_reason(j, JUDGE_WARN, "not proven erased (end=%s): %s",
			     m, e->why);
	else if (erase && e->state == ENDSTEP_SKIPPED)
		judge_reason(j, JUDGE_WARN, "not erased (end=%s): %s", m,
			     e->why);
	else if (erase && e->state == ENDSTEP_NONE && !final)
		judge_reason(j, JUDGE_PASS, "no burn pass: profile erase, its "
			     "end step not made yet");
	else if (erase && e->state == ENDSTEP_NONE)
		judge_reason(j, JUDGE_WARN, "not erased (end=%s): its end "
			     "step was never made", m);
	else if (erase && e->state == ENDSTEP_STOPPED)
		judge_reason(j, JUDGE_WARN, "not erased (end=%s): the run was "
			     "interrupted during the step%s%s", m,
			     e->why[0] ? ": " : "", e->why);
	else if (erase && e->state == ENDSTEP_ERROR)
		judge_reason(j, JUDGE_FAIL, "not erased (end=%s): %s", m,
			     e->why);
	if (e->state == ENDSTEP_FAILED || e->state == ENDSTEP_STALLED)
		judge_reason(j, JUDGE_FAIL, "end=%s: %s", m, e->why);
	else if (e->state == ENDSTEP_ERROR && !erase)
		judge_reason(j, JUDGE_WARN, "end=%s: %s", m, e->why);
}
