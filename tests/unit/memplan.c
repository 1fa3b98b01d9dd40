/* SPDX-License-Identifier: MIT */
/*
 * Description: the memory plan on synthetic figures: a region smaller
 * than qd x bs pins only the buffers its requests can use, each no larger
 * than its widest extent; qd 256 of 64 MiB on two 4 GiB targets in a
 * 1 GiB cgroup runs at the largest qd that fits beside the 256 MiB kept
 * back, a tenth kept back on a big machine, and what cannot fit at qd 1
 * is said so; the figures are read from a fixture /proc and cgroup tree
 * (v2 alone, v1 beside v2, an old kernel without MemAvailable, nothing),
 * the tightest level of the hierarchy winning.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "engine/memplan.h"
#include "base/unit.h"

#define KiB 1024ull
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

static struct engine_plan whole(uint64_t region)
{
	struct engine_plan p;

	memset(&p, 0, sizeof(p));
	p.next = 1;
	p.ext[0].length = region;
	p.region = region;
	return p;
}

static void test_buffers(void)
{
	struct engine_plan p = whole(4 * GiB);
	unsigned n;
	uint64_t len;

	memplan_buffers(&p, 64 * MiB, 256, 4096, &n, &len);
	tap_ok(n == 64 && len == 64 * MiB,
	       "4 GiB at qd 256 of 64 MiB: 64 buffers of 64 MiB (%u, %llu)",
	       n, (unsigned long long)len);
	memplan_buffers(&p, MiB, 8, 4096, &n, &len);
	tap_ok(n == 8 && len == MiB, "a large region: qd buffers of bs");

	p = whole(MiB);
	memplan_buffers(&p, MiB, 8, 4096, &n, &len);
	tap_ok(n == 1 && len == MiB, "1 MiB at the defaults: one buffer");

	p = whole(12 * KiB);
	memplan_buffers(&p, MiB, 8, 4096, &n, &len);
	tap_ok(n == 1 && len == 12 * KiB,
	       "12 KiB: one buffer of 12 KiB (%u, %llu)", n,
	       (unsigned long long)len);
	memplan_buffers(&p, MiB, 8, 8192, &n, &len);
	tap_ok(len == 16 * KiB, "rounded up to the alignment (%llu)",
	       (unsigned long long)len);

	/* quick: three pieces; no request crosses a piece's end */
	p = whole(MiB);
	p.next = 3;
	p.ext[1].length = MiB;
	p.ext[2].length = MiB;
	p.region = 3 * MiB;
	memplan_buffers(&p, 2 * MiB, 8, 4096, &n, &len);
	tap_ok(n == 3 && len == MiB,
	       "three 1 MiB pieces at bs 2 MiB: 3 buffers of 1 MiB (%u)", n);
	memplan_buffers(&p, 256 * KiB, 8, 4096, &n, &len);
	tap_ok(n == 8 && len == 256 * KiB, "and at bs 256 KiB: qd of bs");

	p = whole(4 * GiB);
	tap_ok(memplan_pins(&(struct memplan_target){ &p, 4096 }, 64 * MiB,
			    4) == 4 * 64 * MiB + UNIT_SIZE,
	       "a target pins its buffers and its scratch unit");
}

static void test_choose(void)
{
	struct engine_plan big = whole(4 * GiB), small = whole(MiB);
	struct memplan_target t[1000];
	struct memplan p;
	int i, ret;

	t[0] = (struct memplan_target){ &big, 4096 };
	t[1] = t[0];
	ret = memplan_choose(24 * GiB, GiB, t, 2, 64 * MiB, 256, &p);
	tap_ok(ret == 0 && p.usable == GiB && p.keep == 256 * MiB &&
	       p.budget == 768 * MiB,
	       "1 GiB cgroup: 256 MiB kept back, 768 MiB to pin (%llu)",
	       (unsigned long long)p.budget);
	tap_ok(p.qd == 5 && p.pins == 2 * (5 * 64 * MiB + UNIT_SIZE) &&
	       p.qd_asked == 256 && p.pins_asked == 2 * (64 * 64 * MiB +
							 UNIT_SIZE),
	       "qd 256 of 64 MiB on two 4 GiB targets runs at qd 5 (%u)",
	       p.qd);
	tap_ok(memplan_left(&p) == 768 * MiB - p.pins,
	       "what the plan leaves: the budget less the pins (%llu)",
	       (unsigned long long)memplan_left(&p));

	ret = memplan_choose(24 * GiB, UINT64_MAX, t, 2, MiB, 8, &p);
	tap_ok(ret == 0 && p.qd == 8 && p.keep == p.usable / 10,
	       "a big machine: a tenth kept back, qd as asked");

	for (i = 0; i < 1000; i++)
		t[i] = (struct memplan_target){ &small, 4096 };
	ret = memplan_choose(4 * GiB, UINT64_MAX, t, 1000, MiB, 8, &p);
	tap_ok(ret == 0 && p.qd == 8 && p.pins == 1000 * (MiB + UNIT_SIZE),
	       "1,000 files of 1 MiB at the defaults pin 1,000 MiB, not 8 GiB");

	t[0] = (struct memplan_target){ &big, 4096 };
	ret = memplan_choose(24 * GiB, 300 * MiB, t, 1, 64 * MiB, 8, &p);
	tap_ok(ret == -ENOMEM && p.qd == 0 && p.budget == 44 * MiB &&
	       p.pins == 64 * MiB + UNIT_SIZE && memplan_left(&p) == 0,
	       "64 MiB at qd 1 cannot fit 300 MiB less 256 MiB kept back");

	ret = memplan_choose(200 * MiB, UINT64_MAX, t, 1, 4 * KiB, 1, &p);
	tap_ok(ret == -ENOMEM && p.budget == 0,
	       "less than what is kept back: nothing fits");

	ret = memplan_choose(UINT64_MAX, UINT64_MAX, t, 1, 64 * MiB, 256, &p);
	tap_ok(ret == 0 && p.qd == 256,
	       "nothing known of the machine: qd as asked");

	t[1] = (struct memplan_target){ &small, 4096 };
	ret = memplan_choose(24 * GiB, GiB, t, 2, 64 * MiB, 256, &p);
	tap_ok(ret == 0 && p.qd == 11 && p.pins == 11 * 64 * MiB + MiB +
	       2 * UNIT_SIZE,
	       "a small target beside a big one pins its one buffer (qd %u)",
	       p.qd);
}

static char root[64];

static void put(const char *text, const char *rel)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = 0;
	tap_sh("mkdir -p '%s'", path);
	*slash = '/';
	tap_put(text, "%s", path);
}

static void read_in(const char *tree, uint64_t *avail, uint64_t *room)
{
	char proc[512], sys[512];

	snprintf(proc, sizeof(proc), "%s/%s/proc", root, tree);
	snprintf(sys, sizeof(sys), "%s/%s/sys", root, tree);
	memplan_read(proc, sys, avail, room);
}

static void test_read(void)
{
	uint64_t avail, room;

	snprintf(root, sizeof(root), "/tmp/memplan.XXXXXX");
	if (!mkdtemp(root))
		tap_bail("mkdtemp");

	/* v2 alone; the parent's limit is the tighter, its cache free */
	put("MemTotal:       24683652 kB\nMemFree:  100 kB\n"
	    "MemAvailable:   2097152 kB\nBuffers: 5 kB\n", "v2/proc/meminfo");
	put("0::/a/b\n", "v2/proc/self/cgroup");
	put("max\n", "v2/sys/fs/cgroup/a/b/memory.max");
	put("104857600\n", "v2/sys/fs/cgroup/a/b/memory.current");
	put("1073741824\n", "v2/sys/fs/cgroup/a/memory.max");
	put("314572800\n", "v2/sys/fs/cgroup/a/memory.current");
	put("anon 1\nfile 2\nactive_file 5\ninactive_file 104857600\n"
	    "x_inactive_file 7\n", "v2/sys/fs/cgroup/a/memory.stat");
	put("0\n", "v2/sys/fs/cgroup/cgroup.procs");
	read_in("v2", &avail, &room);
	tap_ok(avail == 2 * GiB, "MemAvailable read (%llu)",
	       (unsigned long long)avail);
	tap_ok(room == GiB - 200 * MiB,
	       "v2: the parent's limit less its use less inactive cache "
	       "(%llu)", (unsigned long long)room);

	/* a child tighter than its parent */
	put("268435456\n", "v2/sys/fs/cgroup/a/b/memory.max");
	read_in("v2", &avail, &room);
	tap_ok(room == 156 * MiB, "v2: the tightest level wins (%llu)",
	       (unsigned long long)room);
	/* over its limit: no room, never a wrap */
	put("300000000\n", "v2/sys/fs/cgroup/a/b/memory.current");
	read_in("v2", &avail, &room);
	tap_ok(room == 0, "v2: used past the limit is no room (%llu)",
	       (unsigned long long)room);

	/* v1 memory beside v2 (this is how many hosts still are) */
	put("MemFree: 1024 kB\nBuffers: 1024 kB\nCached: 2048 kB\n",
	    "v1/proc/meminfo");
	put("12:pids:/\n4:cpu,memory:/x\n0::/\n", "v1/proc/self/cgroup");
	put("536870912\n", "v1/sys/fs/cgroup/memory/x/memory.limit_in_bytes");
	put("209715200\n", "v1/sys/fs/cgroup/memory/x/memory.usage_in_bytes");
	put("cache 5\ntotal_inactive_file 104857600\n",
	    "v1/sys/fs/cgroup/memory/x/memory.stat");
	put("9223372036854771712\n",
	    "v1/sys/fs/cgroup/memory/memory.limit_in_bytes");
	put("9000000000\n", "v1/sys/fs/cgroup/memory/memory.usage_in_bytes");
	put("", "v1/sys/fs/cgroup/unified/cgroup.procs");
	read_in("v1", &avail, &room);
	tap_ok(avail == 4 * MiB,
	       "without MemAvailable: free, buffers and cache (%llu)",
	       (unsigned long long)avail);
	tap_ok(room == 412 * MiB, "v1: limit_in_bytes less usage (%llu)",
	       (unsigned long long)room);

	/* v2 in a namespace: the cgroup is the mount's own root */
	put("MemAvailable: 1048576 kB\n", "ns/proc/meminfo");
	put("0::/\n", "ns/proc/self/cgroup");
	put("536870912\n", "ns/sys/fs/cgroup/memory.max");
	put("0\n", "ns/sys/fs/cgroup/memory.current");
	read_in("ns", &avail, &room);
	tap_ok(room == 512 * MiB, "v2 at the mount's root (%llu)",
	       (unsigned long long)room);

	read_in("none", &avail, &room);
	tap_ok(avail == UINT64_MAX && room == UINT64_MAX,
	       "nothing readable: unknown, never a stop");

	tap_sh("rm -rf '%s'", root);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_buffers);
	TAP_RUN(test_choose);
	TAP_RUN(test_read);
	return tap_done();
}
