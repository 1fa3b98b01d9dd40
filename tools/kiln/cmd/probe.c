/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln probe, the safety class of given disks or image files
 * and the signatures found on them, for people or as JSON. Never writes.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/deadline.h"
#include "discover/identity.h"
#include "base/json.h"
#include "base/kiln.h"
#include "settings/options.h"
#include "cmd/probe.h"
#include "discover/safety.h"
#include "discover/target.h"
#include "base/unit.h"
#include "base/timing.h"

/*
 * One path classed in a child process of its own, under the deadline: a
 * disk that never answers is left behind there, and kiln still exits.
 */
struct probing {
	const char *path;
	struct safety_env env;
	int err;			/* errno of a failed open */
	struct safety s;
};

/*
 * A path kiln could not open (another user's disk, a container's device
 * rules): a mounted or held disk is in use all the same, and that is what
 * its class says, not the open's errno. 0 when it is in use.
 */
static int in_use_unopened(struct probing *p)
{
	struct safety_subject d = { .name = "", .fd = -1 };
	char real[PATH_MAX];
	struct identity id;
	struct stat st;

	if (stat(p->path, &st) < 0)
		return -1;
	if (S_ISBLK(st.st_mode)) {
		if (identity_read(p->env.sysroot, major(st.st_rdev),
				  minor(st.st_rdev), 0, &id))
			return -1;
		d.name = id.name;
		d.rdev = st.st_rdev;
	} else if (S_ISREG(st.st_mode) && realpath(p->path, real)) {
		d.path = real;
	} else {
		return -1;
	}
	safety_in_use(&p->env, &d, &p->s);
	return p->s.class == SAFETY_IN_USE ? 0 : -1;
}

static void probe_one(void *arg)
{
	struct probing *p = arg;
	struct safety_subject d = { .name = "", .fd = -1 };
	struct identity id;
	char real[PATH_MAX], identity[PATH_MAX + 8];
	unsigned long long size = 0;
	struct stat st;

	/* Not blocking: a FIFO named by mistake is refused, not waited on. */
	d.fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_DIRECT);
	if (d.fd < 0 && errno == EINVAL)
		d.fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (d.fd < 0 || fstat(d.fd, &st) < 0) {
		p->err = errno;
		if (d.fd >= 0)
			close(d.fd);
		else if (in_use_unopened(p) == 0)
			p->err = 0;
		return;
	}
	/* /dev/zero reads as blank: only disks and image files have a class. */
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		p->err = ENOTBLK;
		close(d.fd);
		return;
	}
	/* The identity kiln burn would give it: its own units are kiln-data. */
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(d.fd, BLKGETSIZE64, &size) < 0)
			size = 0;
		if (identity_read(p->env.sysroot, major(st.st_rdev),
				  minor(st.st_rdev), size, &id) == 0) {
			d.name = id.name;
			d.ident = unit_ident_hash(id.identity);
		}
		d.rdev = st.st_rdev;
	} else {
		size = (unsigned long long)st.st_size;
		if (!realpath(p->path, real))
			snprintf(real, sizeof(real), "%s", p->path);
		snprintf(identity, sizeof(identity), "file:%s", real);
		d.path = real;
		d.ident = unit_ident_hash(identity);
	}
	d.size = size;
	safety_classify(&p->env, &d, &p->s);
	close(d.fd);
}

const struct options_cmd probe_cmd = {
	"probe", "[--json] [--deadline S] PATH...",
	"The safety class of disks or image files, and what was found on "
	"them: in-use, kiln-data, has-data or blank, with the reasons (the "
	"signatures and their byte offsets). Never writes.",
	SCOPE_PROBE,
};

/* A path that did not answer in time: said, and a FAIL. */
static void say_stalled(const struct probing *p, unsigned deadline, int json,
			struct json *j)
{
	char stalled[120];

	snprintf(stalled, sizeof(stalled), "stalled: no answer in %u s",
		 deadline);
	if (json) {
		json_begin(j, NULL);
		json_str(j, "path", p->path);
		json_str(j, "class", "stalled");
		json_str(j, "class_reasons", stalled);
		json_end(j);
	} else {
		printf("%s: %s\n", p->path, stalled);
	}
}

/* A path classed: its class and reasons, for people or as JSON. */
static void say_class(const struct probing *p, int json, struct json *j)
{
	const struct safety *s = &p->s;
	int k;

	if (!json) {
		printf("%s: %s: %s\n", p->path, safety_class_name(s->class),
		       s->why);
		if (s->notes[0])
			printf("%s: note: %s\n", p->path, s->notes);
		return;
	}
	json_begin(j, NULL);
	json_str(j, "path", p->path);
	json_str(j, "class", safety_class_name(s->class));
	json_str(j, "class_reasons", s->why);
	if (s->notes[0])
		json_str(j, "class_notes", s->notes);
	json_array(j, "signatures");
	for (k = 0; k < s->sig.n; k++) {
		json_begin(j, NULL);
		json_str(j, "what", s->sig.hits[k].what);
		json_u64(j, "offset", s->sig.hits[k].offset);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

/* A path that could not be opened: exit 2 for a bad name, else 3. */
static int say_error(const struct probing *p)
{
	if (p->err == ENOTBLK)
		fprintf(stderr, "kiln: %s: not a block device or a regular "
			"file\n", p->path);
	else
		fprintf(stderr, "kiln: cannot open %s: %s\n", p->path,
			strerror(p->err));
	return target_bad_name(p->err) ? KILN_EXIT_USAGE : KILN_EXIT_CANNOT;
}

int probe_command(struct options_args *a)
{
	struct safety_env env = { .sysroot = "/sys", .procroot = "/proc" };
	struct safety_look *look = NULL;
	const struct settings *set = &a->s;
	struct probing *probes = NULL;
	struct json j;
	int *done = NULL, i, n = a->nargs, late = 0, err;
	int code = KILN_EXIT_PASS;

	probes = calloc((size_t)n + 1, sizeof(*probes));
	done = calloc((size_t)n + 1, sizeof(*done));
	/* Once for all: each child has its copy. */
	look = n > 1 ? safety_look(&env) : NULL;
	env.look = look;
	for (i = 0; probes && i < n; i++) {
		probes[i].path = a->args[i];
		probes[i].env = env;
	}
	/* A disk that does not answer is said, and the others are probed. */
	if (!probes || !done ||
	    deadline_apart(probe_one, probes, sizeof(*probes), n, -1,
			   (uint64_t)set->deadline * TIMING_SEC, done)) {
		fprintf(stderr, "kiln: out of memory\n");
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	json_init(&j);
	json_array(&j, NULL);
	for (i = 0; i < n; i++) {
		if (!done[i]) {
			late = 1;
			code = KILN_EXIT_FAIL;
			say_stalled(&probes[i], set->deadline, set->json, &j);
		} else if (probes[i].err) {
			err = say_error(&probes[i]);
			if (code == KILN_EXIT_PASS)
				code = err;
		} else {
			say_class(&probes[i], set->json, &j);
		}
	}
	json_array_end(&j);
	if (set->json) {
		size_t len;
		char *doc = json_take(&j, &len);

		if (doc)
			fwrite(doc, 1, len, stdout);
		free(doc);
	}
	json_free(&j);
out:
	safety_look_free(look);
	/* A path still being read keeps its item: leave them then. */
	if (!late)
		free(probes);
	free(done);
	return code;
}
