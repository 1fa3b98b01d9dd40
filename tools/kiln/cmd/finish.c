/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln finish DIR, and the same for kiln run at the next
 * boot: a run cut off (a power cut, kill -9) left checkpoints and no
 * result.json; its folder is finished from the newest good checkpoint,
 * marked interrupted with what had been seen until then, with the files a
 * finished run has (result.json, summary.txt, report.html, and each
 * FAILed disk's rma-<serial>.txt). A finished
 * folder is left as it is.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/finish.h"
#include "fleet/fleet.h"
#include "results/folder.h"
#include "results/result_keys.h"
#include "base/jsonread.h"
#include "base/kiln.h"
#include "results/signal.h"
#include "settings/options.h"
#include "results/report_html.h"
#include "results/rma.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/summary.h"
#include "base/timing.h"

const struct options_cmd finish_cmd = {
	"finish", "DIR...",
	"Finishes run folders that a run left unfinished (a power cut, kill "
	"-9): from the newest checkpoint whose length and CRC hold, writes "
	"result.json (state interrupted), summary.txt, report.html and each "
	"FAILed disk's rma-<serial>.txt, with "
	"what had been seen until then. Exits with that run's code: 1 if a "
	"disk had failed, else 4. A folder already finished is left as it is "
	"(exit 0); one with no good checkpoint, or one of a schema version "
	"this kiln does not know, is exit 3. kiln run does the "
	"same by itself for its machine's folders before it starts.",
	SCOPE_FINISH,
};

/*
 * The state result.json says, "" when there is none that parses; -E2BIG
 * (err says why) when it is past a reader's limits.
 */
static int finished_state(const char *dir, char *state, size_t len,
			  char *err, size_t errlen)
{
	struct jsonread *doc = NULL;
	char path[PATH_MAX], why[200] = "";
	int ret;

	state[0] = 0;
	snprintf(path, sizeof(path), "%s/result.json", dir);
	ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
	if (ret == 0)
		snprintf(state, len, "%s",
			 jsonread_str(jsonread_root(doc), KEY_STATE, ""));
	jsonread_free(doc);
	if (ret == -E2BIG)
		snprintf(err, errlen, "%s is too large to read: %s", path, why);
	return ret == -E2BIG ? ret : 0;
}

int finish_folder(const char *dir, FILE *con, int *code)
{
	const struct jsonread_node *result;
	struct jsonread *doc = NULL;
	struct restored rs;
	char path[PATH_MAX], state[32], err[300], hms[32], why[PATH_MAX + 100];
	char *text = NULL, *json, *html;
	size_t tlen = 0, jlen, hlen;
	uint64_t seq = 0;
	int i, ret;

	/* A record too large to read is there: never finished over. */
	snprintf(path, sizeof(path), "%s/result.json", dir);
	if (result_too_large(path, err, sizeof(err)) ||
	    finished_state(dir, state, sizeof(state), err, sizeof(err))) {
		fprintf(stderr, "kiln: %s: left as it is\n", err);
		*code = KILN_EXIT_CANNOT;
		return -EFBIG;
	}
	if (state[0] && record_state_of(state) != RECORD_RUNNING) {
		fprintf(con,
			"kiln: %s is finished already (%s): left as it is\n",
			dir, state);
		*code = KILN_EXIT_PASS;
		return 0;
	}
	if (result_checkpoint_too_large(dir, err, sizeof(err))) {
		fprintf(stderr, "kiln: %s\n", err);
		*code = KILN_EXIT_CANNOT;
		return -EFBIG;
	}
	if (folder_newest(dir, path, sizeof(path), &seq)) {
		fprintf(stderr, "kiln: %s: no good checkpoint to finish it "
			"from\n", dir);
		*code = KILN_EXIT_CANNOT;
		return -ENOENT;
	}
	ret = jsonread_load(&doc, path, NULL, err, sizeof(err));
	result = ret ? NULL : jsonread_get(jsonread_root(doc), "result");
	if (!result || restore_record(result, &rs, err, sizeof(err))) {
		fprintf(stderr, "kiln: %s: %s\n", path, result ? err :
			"not a checkpoint of kiln");
		jsonread_free(doc);
		restore_free(&rs);
		*code = KILN_EXIT_CANNOT;
		return -EBADMSG;
	}
	jsonread_free(doc);
	for (i = 0; i < rs.r.n; i++) {
		struct engine_snap *s = &rs.r.disks[i].snap;

		if (s->c.state != STATE_RUNNING)
			continue;
		s->c.state = STATE_STOPPED;
		snprintf(s->why, sizeof(s->why), "cut off (a power cut?): "
			 "what is here was seen until checkpoint %llu",
			 (unsigned long long)seq);
	}
	record_note(&rs.r, "finished by kiln finish from checkpoint %llu, "
		    "%s into the run: the run was cut off and what it saw "
		    "after that is lost", (unsigned long long)seq,
		    timing_fmt_hms(rs.r.elapsed_ns / TIMING_SEC, hms,
				   sizeof(hms)));
	signals_judge(&rs.r, 1, 1);
	rs.r.state = RECORD_INTERRUPTED;
	/* It ended where its last checkpoint saw it, as its duration says. */
	if (!rs.r.ended)
		rs.r.ended = figures_ended(&rs.r);
	/* Its folder: summary.txt and report.html name its rma-*.txt. */
	rs.r.out = dir;

	text = summary_string(&rs.r, &tlen);
	json = result_json(&rs.r, &jlen);
	html = report_html(&rs.r, &hlen);
	if (folder_others(dir, why, sizeof(why)))
		fprintf(stderr, "kiln: %s\n", why);
	ret = folder_write_in(dir, "report.html", html, hlen);
	if (!ret)
		ret = folder_write_in(dir, "summary.txt", text, tlen);
	if (!ret)
		ret = rma_write_all(&rs.r, dir);
	if (!ret)
		ret = fleet_index_drop(dir);
	if (!ret)
		ret = folder_write_in(dir, "result.json", json, jlen);
	if (!ret && fleet_index_redo(dir, why, sizeof(why)))
		fprintf(stderr, "kiln: no index beside %s/result.json: %s\n",
			dir, why);
	if (ret)
		fprintf(stderr, "kiln: cannot write the results in %s: %s\n",
			dir, strerror(-ret));
	else
		fprintf(con, "kiln: %s finished from checkpoint %llu: %s\n",
			dir, (unsigned long long)seq,
			judge_name(rs.r.verdict));
	*code = ret ? KILN_EXIT_CANNOT : rs.r.exit_code;
	free(text);
	free(json);
	free(html);
	restore_free(&rs);
	return ret;
}

int finish_machine(const char *machine_dir, FILE *con,
		   void (*done)(const char *dir, void *arg), void *arg)
{
	char path[PATH_MAX], **names = NULL;
	struct dirent *e;
	DIR *d = opendir(machine_dir);
	int n = 0, i, code, finished = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char **grown;

		if (e->d_name[0] == '.')
			continue;
		grown = realloc(names, (size_t)(n + 1) * sizeof(*names));
		if (!grown)
			break;
		names = grown;
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		char state[32], cp[PATH_MAX];
		uint64_t seq;

		snprintf(path, sizeof(path), "%s/%s", machine_dir, names[i]);
		finished_state(path, state, sizeof(state), cp, sizeof(cp));
		/* Unfinished: checkpoints, and no finished result.json. */
		if ((!state[0] || record_state_of(state) == RECORD_RUNNING) &&
		    folder_newest(path, cp, sizeof(cp), &seq) == 0 &&
		    finish_folder(path, con, &code) == 0) {
			finished++;
			if (done)
				done(path, arg);
		}
		free(names[i]);
	}
	free(names);
	return finished;
}

int finish_command(struct options_args *a)
{
	int i, code, worst = KILN_EXIT_PASS;

	for (i = 0; i < a->nargs; i++) {
		finish_folder(a->args[i], stdout, &code);
		/* The worst of them: a failed disk, then lost results. */
		if (code == KILN_EXIT_FAIL || worst == KILN_EXIT_PASS ||
		    (worst != KILN_EXIT_FAIL && code == KILN_EXIT_CANNOT))
			worst = code;
	}
	return worst;
}
