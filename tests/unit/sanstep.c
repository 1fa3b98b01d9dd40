/* SPDX-License-Identifier: MIT */
/*
 * Description: end=sanitize's consent on a drive whose erase reaches
 * every namespace: an Identify namespace list (CNS 02h or 10h) is read
 * as the spec lays it, IDs little-endian until the first zero, and holds
 * the disk alone only when no other ID is in it, wherever it stands. A
 * Sanitize followed in log 81h is over only when the log says the one
 * kiln sent (its Dword 10) is done and nothing was written since (Global
 * Data Erased): an older sanitize's done, before the burn wrote, is not;
 * it failed when the log says so of it, and is late past its deadline.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/sanstep.h"

static void put(uint8_t *list, int i, uint32_t id)
{
	list[4 * i] = id & 0xff;
	list[4 * i + 1] = id >> 8 & 0xff;
	list[4 * i + 2] = id >> 16 & 0xff;
	list[4 * i + 3] = id >> 24;
}

static void test_next(void)
{
	struct sancmd_progress p = { .state = SANCMD_RUNNING, .cdw10 = 2 };

	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_WAIT, "running: wait");
	tap_ok(sanstep_next(&p, 2, 601, 600) == SANSTEP_LATE,
	       "running past its deadline: late");
	p.state = SANCMD_DONE;
	p.global_erased = 1;
	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_DONE,
	       "done, erased, started by ours: done");
	p.state = SANCMD_DONE_NODEALLOC;
	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_DONE,
	       "done without deallocation: done");
	p.global_erased = 0;
	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_WAIT,
	       "done but written since (an older one): wait");
	p.global_erased = 1;
	p.cdw10 = 4;
	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_WAIT,
	       "done, started by another command: wait");
	p.state = SANCMD_FAILED;
	p.cdw10 = 2;
	tap_ok(sanstep_next(&p, 2, 5, 600) == SANSTEP_FAILED,
	       "ours failed: failed");
	p.cdw10 = 4;
	tap_ok(sanstep_next(&p, 2, 601, 600) == SANSTEP_LATE,
	       "another's failure, past the deadline: late, not ours failed");
}

int main(int argc, char **argv)
{
	uint8_t list[SANCMD_NVME_ID_LEN];

	(void)argc;
	(void)argv;
	tap_plan(14);
	test_next();
	memset(list, 0, sizeof(list));
	put(list, 0, 1);
	tap_ok(sanstep_alone(list, sizeof(list), 1), "only this namespace");
	tap_ok(!sanstep_alone(list, sizeof(list), 2),
	       "one other namespace: not alone");
	put(list, 1, 0x00010002);
	tap_ok(!sanstep_alone(list, sizeof(list), 1),
	       "a second one, its ID past 16 bits: not alone");
	memset(list, 0, sizeof(list));
	put(list, 0, 1);
	put(list, 2, 7);
	tap_ok(sanstep_alone(list, sizeof(list), 1),
	       "what follows the first zero is not in the list");
	memset(list, 0, sizeof(list));
	put(list, SANCMD_NVME_ID_LEN / 4 - 1, 9);
	put(list, 0, 3);
	memset(list + 4, 0xff, SANCMD_NVME_ID_LEN - 8);
	tap_ok(!sanstep_alone(list, sizeof(list), 3),
	       "a full list of others: not alone");
	tap_ok(sanstep_alone(list, 3, 3), "a list too short for an ID: "
	       "nothing in it");
	return tap_done();
}
