/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART's slot of a disk (see smartjudge.h): what smartctl
 * said before and after the run, held by the record without the record
 * knowing it; judge_health() (judge.c) is its rule.
 */
#include "judge/record.h"
#include "judge/smartjudge.h"

static void slot_free(void *data)
{
	struct smart_disk *s = data;

	health_free(&s->before);
	health_free(&s->after);
}

struct smart_disk *smart_disk_make(struct record_disk *d)
{
	return record_disk_slot_make(d, SMART_SLOT, sizeof(struct smart_disk),
				     slot_free);
}

const struct smart_disk *smart_disk_of(const struct record_disk *d)
{
	static const struct smart_disk none;
	const struct smart_disk *s = record_disk_slot(d, SMART_SLOT);

	return s ? s : &none;
}
