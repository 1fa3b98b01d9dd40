/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln report RUN_DIR: summary.txt and report.html made again
 * from a run folder's result.json, with this kiln's code and the record's
 * verdicts (never judged again), so a lab re-renders old runs after an
 * upgrade and a test renders any record. Only those two files are
 * written, each whole (a temporary file, then a rename).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/report.h"
#include "results/folder.h"
#include "base/jsonread.h"
#include "base/kiln.h"
#include "settings/options.h"
#include "results/report_html.h"
#include "results/restore.h"
#include "results/samples_read.h"
#include "results/result.h"
#include "results/summary.h"

const struct options_cmd report_cmd = {
	"report", "RUN_DIR...",
	"Writes summary.txt and report.html of run folders again from their "
	"result.json, as this kiln renders them, with the verdicts the record "
	"holds (nothing is judged again, no disk is touched, no other file "
	"of the folder is written; each file is written whole, a temporary "
	"file then a rename); the plots of throughput come from the "
	"folder's samples.csv. Exit 0 when both are written; 2 when RUN_DIR "
	"is not a directory; 3 when its result.json is missing, too large, "
	"not JSON, not a kiln result or of a schema version this kiln does "
	"not know, or the files cannot be written. With several folders, the "
	"worst of their codes.",
	SCOPE_REPORT,
};

/* The folder's record, restored: 0, or the exit code with one line said. */
static int load(const char *dir, struct restored *rs)
{
	struct jsonread *doc = NULL;
	char path[PATH_MAX], err[400] = "";
	struct stat st;
	int ret;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "kiln: %s: %s\n", dir, stat(dir, &st) < 0 ?
			"no such run folder" : "not a directory");
		return KILN_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/result.json", dir);
	if (stat(path, &st) < 0) {
		fprintf(stderr, "kiln: %s: no result.json (a run cut off: "
			"kiln finish %s)\n", dir, dir);
		return KILN_EXIT_CANNOT;
	}
	if (result_too_large(path, err, sizeof(err))) {
		fprintf(stderr, "kiln: %s\n", err);
		return KILN_EXIT_CANNOT;
	}
	ret = jsonread_load(&doc, path, NULL, err, sizeof(err));
	if (!ret)
		ret = restore_record(jsonread_root(doc), rs, err, sizeof(err));
	else
		memset(rs, 0, sizeof(*rs));
	if (!ret) {
		restore_verdicts(jsonread_root(doc), rs);
		restore_latency(jsonread_root(doc), rs);
	}
	jsonread_free(doc);
	if (ret) {
		fprintf(stderr, "kiln: %s: %s\n", path, err[0] ? err :
			strerror(-ret));
		return KILN_EXIT_CANNOT;
	}
	return 0;
}

/* One folder: its exit code. */
static int report_folder(const char *dir)
{
	struct restored rs;
	char *text = NULL, *html, path[PATH_MAX], why[PATH_MAX + 100];
	size_t tlen = 0, hlen = 0;
	int ret = load(dir, &rs);

	if (ret) {
		restore_free(&rs);
		return ret;
	}
	/* Its folder: summary.txt and report.html name its rma-*.txt. */
	rs.r.out = dir;
	/* The plots, when the folder still has its samples. */
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	samples_read_series(path, &rs.r);
	text = summary_string(&rs.r, &tlen);
	html = report_html(&rs.r, &hlen);
	if (folder_others(dir, why, sizeof(why)))
		fprintf(stderr, "kiln: %s\n", why);
	ret = folder_write_in(dir, "summary.txt", text, tlen);
	if (!ret)
		ret = folder_write_in(dir, "report.html", html, hlen);
	if (ret)
		fprintf(stderr, "kiln: cannot write the report in %s: %s\n",
			dir, strerror(-ret));
	else
		printf("kiln: %s: summary.txt and report.html written (%s)\n",
		       dir, judge_name(rs.r.verdict));
	free(text);
	free(html);
	restore_free(&rs);
	return ret ? KILN_EXIT_CANNOT : KILN_EXIT_PASS;
}

int report_command(struct options_args *a)
{
	int i, code, worst = KILN_EXIT_PASS;

	for (i = 0; i < a->nargs; i++) {
		code = report_folder(a->args[i]);
		if (code == KILN_EXIT_CANNOT || worst == KILN_EXIT_PASS)
			worst = code;
	}
	return worst;
}
