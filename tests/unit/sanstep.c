/* SPDX-License-Identifier: MIT */
/*
 * Description: end=sanitize's consent on a drive whose erase reaches
 * every namespace: an Identify namespace list (CNS 02h or 10h) is read
 * as the spec lays it, IDs little-endian until the first zero, and holds
 * the disk alone only when no other ID is in it, wherever it stands.
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

int main(int argc, char **argv)
{
	uint8_t list[SANCMD_NVME_ID_LEN];

	(void)argc;
	(void)argv;
	tap_plan(6);
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
