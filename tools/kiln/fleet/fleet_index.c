/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's index.json, what kiln fleet reads of its
 * result.json and nothing else: the run's line and each disk's figures as
 * fleet_read.c makes them, about 3 KB for a run of 12 disks whose
 * result.json is 220 KB. A run writes it beside result.json at its end
 * (and again whenever result.json is written again); kiln fleet reads it
 * while it still matches result.json, else result.json as before, so an
 * index adds speed and never a different page. docs/design.md says why an
 * index and not a faster parse.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "base/timing.h"
#include "fleet/fleet.h"
#include "judge/record.h"
#include "results/folder.h"
#include "results/result.h"
#include "results/result_keys.h"
#include "fleet/fleet_index.h"

int fleet_index_drop(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, FLEET_INDEX);
	return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
}

static int read_disk(const struct jsonread_node *n, struct fleet_disk *d,
		     int *oom)
{
	if (jsonread_type(n) != JSONREAD_OBJECT ||
	    jsonread_type(jsonread_get(n, KEY_VERDICT)) != JSONREAD_STRING)
		return -EBADMSG;
	d->label = fleet_member(n, KEY_LABEL, oom);
	d->model = fleet_member(n, KEY_MODEL, oom);
	d->serial = fleet_member(n, KEY_SERIAL, oom);
	d->wwn = fleet_member(n, KEY_WWN, oom);
	d->identity = fleet_member(n, KEY_IDENTITY, oom);
	d->size = jsonread_u64(n, KEY_SIZE, 0);
	d->file = jsonread_bool(n, KEY_FILE, 0);
	d->passes = jsonread_u64(n, IKEY_PASSES_MADE, 0);
	d->written = jsonread_u64(n, KEY_BYTES_WRITTEN, 0);
	d->read = jsonread_u64(n, KEY_BYTES_READ, 0);
	snprintf(d->verdict, sizeof(d->verdict), "%s",
		 jsonread_str(n, KEY_VERDICT, ""));
	if (jsonread_type(jsonread_get(n, KEY_REASONS)) == JSONREAD_STRING)
		d->reasons = fleet_member(n, KEY_REASONS, oom);
	d->write_mbps = jsonread_num(n, IKEY_WRITE_MBPS, 0);
	d->read_mbps = jsonread_num(n, IKEY_READ_MBPS, 0);
	return 0;
}

/* Whether the index at ist was written for the result.json at st. */
static int matches(const struct jsonread_node *root, const struct stat *st,
		   const struct stat *ist)
{
	/*
	 * Its size, and no later change: an index left from before the run
	 * wrote result.json again (kiln run verifying it, a copy that
	 * changed it) is older, or of another size.
	 */
	if (jsonread_u64(root, IKEY_RESULT_BYTES, UINT64_MAX) !=
	    (uint64_t)st->st_size)
		return 0;
	return ist->st_mtim.tv_sec > st->st_mtim.tv_sec ||
	       (ist->st_mtim.tv_sec == st->st_mtim.tv_sec &&
		ist->st_mtim.tv_nsec >= st->st_mtim.tv_nsec);
}

/*
 * What reading an index allocates, kept for the next (fleet_index_read
 * is called from one thread, run after run): the room its parse uses
 * and the buffer its bytes are read into. musl's malloc gives a freed
 * block of a few KiB back to the kernel, and the next run's read would
 * fault the same pages in again, 200,000 times over a large lab.
 */
static struct jsonread_room room;
static char *bytes;
static size_t bytes_cap;

/*
 * The index at path parsed, its stat in *ist: one open, one fstat and
 * one read for the 200,000 runs of a large lab, where a stat, then
 * jsonread_load's open, fstat and reads, cost a third more calls.
 * 0; -ENOENT none; -EBADMSG not a file, too large or not JSON; -ENOMEM.
 */
static int load(const char *path, const struct jsonread_limits *lim,
		struct stat *ist, struct jsonread **doc)
{
	size_t len = 0, cap;
	char *buf;
	ssize_t n;
	int fd, ret;

	*doc = NULL;
	/*
	 * Not blocking: a FIFO in a results tree must not hang a reader.
	 * openat, as musl's open() sets O_CLOEXEC again with a call of its own.
	 */
	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, ist) < 0 || !S_ISREG(ist->st_mode) ||
	    ist->st_size > INDEX_MAX_BYTES) {
		close(fd);
		return -EBADMSG;
	}
	/*
	 * The bytes its stat said, in one read: one still growing (a copy
	 * under way) is cut short, does not parse, and result.json is read.
	 */
	cap = (size_t)ist->st_size;
	if (cap + 1 > bytes_cap) {
		buf = realloc(bytes, cap + 1);
		if (!buf) {
			close(fd);
			return -ENOMEM;
		}
		bytes = buf;
		bytes_cap = cap + 1;
	}
	buf = bytes;
	ret = 0;
	while (len < cap) {
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = -EBADMSG;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (!ret) {
		ret = jsonread_parse_in(&room, doc, buf, len, lim, NULL, 0);
		if (ret && ret != -ENOMEM)
			ret = -EBADMSG;
	}
	if (ret)
		*doc = NULL;
	return ret;
}

int fleet_index_read(const char *dir, const struct stat *st,
		     struct fleet_run *r)
{
	const struct jsonread_node *root, *disks;
	/* A value costs 2 bytes or more; 16 deep is more than it nests. */
	const struct jsonread_limits lim = {
		INDEX_MAX_BYTES, INDEX_MAX_BYTES / 2, 16
	};
	struct jsonread *doc = NULL;
	char path[PATH_MAX];
	const struct signal_column *cols[FLEET_COLUMNS];
	int ncols = signals_columns(cols, FLEET_COLUMNS), k;
	struct stat ist;
	int ret, oom = 0, i, n;

	snprintf(path, sizeof(path), "%s/%s", dir, FLEET_INDEX);
	ret = load(path, &lim, &ist, &doc);
	if (ret)
		return ret;
	root = jsonread_root(doc);
	disks = jsonread_get(root, IKEY_DISKS);
	ret = -EBADMSG;
	if (strcmp(jsonread_str(root, KEY_SCHEMA, ""), INDEX_SCHEMA) ||
	    jsonread_u64(root, KEY_SCHEMA_VERSION, 0) != INDEX_VERSION ||
	    jsonread_type(disks) != JSONREAD_ARRAY)
		goto out;
	ret = -ENOENT;
	if (!matches(root, st, &ist))
		goto out;
	/*
	 * Each signal's column is there, null when not said: an index from
	 * before a signal gave its column is passed over, not read as
	 * "not said" while result.json says it.
	 */
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		if (!jsonread_get(root, cols[k]->name))
			goto out;
	ret = -EBADMSG;
	r->state = record_state_of(jsonread_str(root, KEY_STATE, ""));
	if (r->state < 0)
		goto out;
	if (jsonread_type(jsonread_get(root, KEY_MACHINE_ID)) ==
	    JSONREAD_STRING) {
		char *id = fleet_member(root, KEY_MACHINE_ID, &oom);

		if (id && id[0]) {
			free(r->machine);
			r->machine = id;
		} else {
			free(id);
		}
	}
	r->vendor = fleet_member(root, KEY_VENDOR, &oom);
	r->product = fleet_member(root, KEY_PRODUCT, &oom);
	r->mac = fleet_member(root, KEY_MAC, &oom);
	r->address = fleet_member(root, KEY_ADDRESS, &oom);
	r->asset_tag = fleet_member(root, KEY_ASSET_TAG, &oom);
	r->chassis_serial = fleet_member(root, KEY_CHASSIS_SERIAL, &oom);
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		r->cols[k] = fleet_member(root, cols[k]->name, &oom);
	snprintf(r->verdict, sizeof(r->verdict), "%s",
		 jsonread_str(root, KEY_VERDICT, ""));
	snprintf(r->started, sizeof(r->started), "%s",
		 jsonread_str(root, KEY_STARTED, ""));
	r->start = timing_parse_utc(r->started);
	r->clock_trusted = jsonread_bool(root, KEY_CLOCK_TRUSTED, 0);
	r->elapsed = jsonread_num(root, KEY_ELAPSED_SECONDS, 0);
	r->kiln_version = fleet_member(root, KEY_KILN_VERSION, &oom);
	snprintf(r->run_id, sizeof(r->run_id), "%s",
		 jsonread_str(root, KEY_RUN_ID, ""));
	if (jsonread_type(jsonread_get(root, KEY_FAILURE)) == JSONREAD_STRING)
		r->failure = fleet_member(root, KEY_FAILURE, &oom);
	if (jsonread_type(jsonread_get(root, KEY_PENDING_OF)) ==
	    JSONREAD_STRING)
		r->pending_of = fleet_member(root, KEY_PENDING_OF, &oom);
	r->results_lost = !jsonread_bool(root, KEY_RESULTS_COMPLETE, 1);
	n = (int)jsonread_count(disks);
	r->disks = calloc((size_t)n + 1, sizeof(*r->disks));
	if (!r->disks) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ret = read_disk(jsonread_at(disks, i), &r->disks[i], &oom);
		r->n++;
		if (ret)
			goto out;
	}
	ret = oom ? -ENOMEM : 0;
out:
	/* The room's: good until the next index is read. */
	jsonread_free(doc);
	return ret;
}

void fleet_index_release(void)
{
	jsonread_room_free(&room);
	free(bytes);
	bytes = NULL;
	bytes_cap = 0;
}
