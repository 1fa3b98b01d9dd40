/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln fleet ROOT...: every run folder under results trees
 * gathered (fleet/), then fleet.html and fleet.csv written in --out DIR,
 * each whole or not at all. A ROOT that is not a folder is bad usage;
 * what cannot be read under one is said on the page, never in the exit
 * code.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/crc32c.h"
#include "base/kiln.h"
#include "base/newfile.h"
#include "cmd/fleet.h"
#include "fleet/fleet.h"

const struct options_cmd fleet_cmd = {
	"fleet", "[--out DIR] ROOT...",
	"Reads every run folder under the results trees given (a lab "
	"server's upload root, kiln-results folders copied off sticks, one "
	"machine's folder) and writes DIR/fleet.html (one self-contained "
	"page, no script; past --page machines, fleet-2.html and on) and "
	"DIR/fleet.csv: per machine its latest run "
	"(verdict, state, failing disks and why, warnings, start, duration, "
	"kiln version) with the runs behind it, failures first, and disks of "
	"one model and capacity compared across machines. A run with "
	"checkpoints (an uploaded one's are under progress/, the newest "
	"read) and no result.json is running, or cut off once its newest "
	"checkpoint is older than --stale. When a machine's latest run left "
	"its disks with end=discard or end=zero, its row links its "
	"cert-machine.html and DIR/fleet-certificates.html holds a batch of "
	"certificates, a printed page a machine. What cannot be read is said on "
	"the page; a DIR others can write is said too. Exit 0 written, 2 no "
	"ROOT or one that is not a folder, 3 DIR cannot be written.",
	SCOPE_FLEET,
};

/*
 * The pages after the first, then the CSV and the batch of certificates,
 * then fleet.html that links to them, each whole or not at all (a .tmp
 * renamed), made under the folder's descriptor so that a link planted
 * there is never followed; a folder others can write is said. A page an
 * earlier render left past the last is taken away. 0 or -errno.
 */
static int write_out(const char *dir, const struct fleet *fl,
		     const struct fleet_like_group *groups, int ngroups,
		     const char *csv, size_t clen, const char *certs,
		     size_t cerlen)
{
	char why[PATH_MAX + 100], name[32], *page;
	int dfd, ret = 0, k, n = fleet_pages(fl);
	size_t len;

	if (!csv)
		return -ENOMEM;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	dfd = newfile_dir(dir);
	if (dfd < 0)
		return dfd;
	if (newfile_others(dfd, dir, why, sizeof(why)))
		fprintf(stderr, "kiln: fleet: %s\n", why);
	for (k = 1; !ret && k < n; k++) {
		page = fleet_page_html(fl, groups, ngroups, k, &len);
		fleet_page_name(k, name, sizeof(name));
		ret = page ? newfile_write(dfd, name, page, len) : -ENOMEM;
		free(page);
	}
	for (k = n; !ret; k++) {
		fleet_page_name(k, name, sizeof(name));
		if (unlinkat(dfd, name, 0))
			break;
	}
	if (!ret)
		ret = newfile_write(dfd, "fleet.csv", csv, clen);
	/* Before the page that links to it. */
	if (!ret && certs)
		ret = newfile_write(dfd, "fleet-certificates.html", certs,
				    cerlen);
	if (!ret) {
		page = fleet_page_html(fl, groups, ngroups, 0, &len);
		ret = page ? newfile_write(dfd, "fleet.html", page, len) :
		      -ENOMEM;
		free(page);
	}
	close(dfd);
	return ret;
}

int fleet_command(struct options_args *a)
{
	struct fleet_like_group *groups = NULL;
	struct fleet fl = { 0 };
	const struct settings *s = &a->s;
	char **args = a->args, *csv = NULL, *certs = NULL;
	const char *dir;
	size_t clen = 0, cerlen = 0;
	int i, n = a->nargs, ngroups = 0, ret, code = KILN_EXIT_PASS, any = 0;

	for (i = 0; i < n; i++) {
		if (!fleet_is_dir(args[i])) {
			fprintf(stderr, "kiln: %s: %s\n", args[i], access(
				args[i], F_OK) ? strerror(errno) :
				"not a folder");
			code = KILN_EXIT_USAGE;
			goto out;
		}
	}
	/*
	 * The CPU's CRC for the checkpoints of runs cut off, or the portable
	 * one (a KILN_CRC32C this CPU lacks is burn's to refuse, not ours).
	 */
	(void)crc32c_init();
	fl.now = time(NULL);
	fl.stale = s->stale;
	fl.per_page = (int)s->page;
	fl.roots = args;
	fl.nroots = n;
	fl.out = s->out ? s->out : ".";
	if (s->refused)
		fleet_read_refused(&fl, s->refused);
	ret = fleet_gather(&fl);
	if (!ret)
		ret = fleet_like_groups(&fl, &groups, &ngroups);
	if (ret) {
		fprintf(stderr, "kiln: fleet: %s\n", strerror(-ret));
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	dir = fl.out;
	/* There first, so the page's links to the runs are from it. */
	if (mkdir(dir, 0755) && errno != EEXIST)
		fl.out = NULL;
	csv = fleet_csv_text(&fl, &clen);
	certs = fleet_certs_html(&fl, &cerlen, &any);
	if (!certs) {
		ret = -ENOMEM;
	} else {
		if (!any) {
			free(certs);
			certs = NULL;
		}
		ret = write_out(dir, &fl, groups, ngroups, csv, clen, certs,
				cerlen);
	}
	if (ret) {
		fprintf(stderr, "kiln: cannot write fleet.html and fleet.csv "
			"in %s: %s\n", dir, strerror(-ret));
		code = KILN_EXIT_CANNOT;
		goto out;
	}
	printf("kiln fleet: %d machine%s, %d run folder%s: %s/fleet.html",
	       fl.n, fl.n == 1 ? "" : "s", fl.nruns, fl.nruns == 1 ? "" : "s",
	       dir);
	if (fleet_pages(&fl) > 1)
		printf(" (%d pages of %d machines)", fleet_pages(&fl),
		       fl.per_page);
	printf(", %s/fleet.csv\n", dir);
out:
	free(csv);
	free(certs);
	fleet_like_free(groups, ngroups);
	fleet_free(&fl);
	return code;
}
