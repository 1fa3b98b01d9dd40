/* SPDX-License-Identifier: MIT */
/*
 * Description: the end of a burn: the confirming re-read, SMART after,
 * iperf3's figures, the judgement, then every results file (report.html,
 * SMART, saved units, result.json, summary.txt, OCP's JSON lines) in the
 * run folder and at the lab's server, and the summary on the console.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/smartjudge.h"
#include "base/complain.h"
#include "base/kiln.h"
#include "base/timing.h"
#include "cmd/burn_private.h"
#include "cmd/leds_use.h"
#include "fleet/fleet.h"
#include "judge/netjudge.h"
#include "judge/reread.h"
#include "lab/lab.h"
#include "results/ocptv.h"
#include "results/report_html.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

/*
 * index.json beside result.json (fleet_index.c): kiln fleet reads it in
 * place of result.json. Not a result: without it the page is the same,
 * only slower to make, so its loss is said and the run goes on whole.
 */
static void keep_index(struct burn *b, const char *doc, size_t dlen)
{
	char why[300] = "", *text;
	size_t len;
	int ret;

	/* A run that left its disks (end=) is read from result.json. */
	if (b->r->s->end != SETTINGS_END_KEEP)
		return;
	text = fleet_index_json(doc, dlen, &len, why, sizeof(why));
	ret = text ? folder_write(&b->res, FLEET_INDEX, text, len) : -EBADMSG;
	if (!ret)
		lab_put(b->lab, FLEET_INDEX, text, len);
	else
		complain("no index beside %s/result.json: %s", b->res.dir,
			 text ? strerror(-ret) : why);
	free(text);
}

static void save_health(struct burn *b)
{
	char name[300];
	int i;

	for (i = 0; i < b->r->n; i++) {
		const struct record_disk *d = &b->r->disks[i];
		const struct smart_disk *s = smart_disk_of(d);

		if (s->before.text) {
			snprintf(name, sizeof(name), "smart-%s-before.txt",
				 d->label);
			burn_keep(b, name, s->before.text, s->before.len);
		}
		if (s->after.text) {
			snprintf(name, sizeof(name), "smart-%s-after.txt",
				 d->label);
			burn_keep(b, name, s->after.text, s->after.len);
		}
	}
}

static void save_units(struct burn *b)
{
	char name[300];
	int i;
	unsigned k, n;

	for (i = 0; i < b->r->n; i++) {
		const struct record_disk *d = &b->r->disks[i];
		const struct engine_saved *sv;

		n = d->et ? engine_saved(d->et, &sv) : 0;
		for (k = 0; k < n; k++) {
			snprintf(name, sizeof(name), "bad-unit-%s-%llu.read",
				 d->label, (unsigned long long)sv[k].offset);
			burn_keep(b, name, sv[k].read, UNIT_SIZE);
			snprintf(name, sizeof(name),
				 "bad-unit-%s-%llu.expected", d->label,
				 (unsigned long long)sv[k].offset);
			burn_keep(b, name, sv[k].expected, UNIT_SIZE);
		}
	}
}

/*
 * Each path still names what kiln opened: a stat each, all within one
 * deadline, since a file's filesystem may have stopped answering (a dead
 * NFS server) and a stat there never returns.
 */
static void paths_current(struct burn *b)
{
	struct record *r = b->r;
	uint64_t end = timing_now_ns() + b->job.deadline_ns, now;
	int i, ret;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->t.fd < 0)
			continue;
		now = timing_now_ns();
		ret = now < end ? target_path_current(&d->t, end - now) :
				  -ETIMEDOUT;
		if (ret == -ETIMEDOUT)
			record_note(r, "%s did not answer a stat in %llu s "
				    "after the burn: whether it still names "
				    "the device kiln opened is not known",
				    d->path, (unsigned long long)
				    (b->job.deadline_ns / TIMING_SEC));
		else if (!ret)
			record_note(r, "%s no longer names the device kiln "
				    "opened (%s): the results are for that "
				    "device", d->path, d->t.id.identity);
	}
}

/*
 * After the workers: the confirming re-read, the sampler's last word,
 * SMART after, iperf3's end, and the record judged, with what the run
 * itself found about its disks noted first.
 */
static void after_burn(struct burn *b)
{
	struct record *r = b->r;
	int i;

	/* The load ends with the burn: the re-read and SMART run without. */
	signals_burn(&b->sig, SIGNAL_UNLOAD);
	if (!*b->stop && b->s->reread)
		reread_run(r, b->job.deadline_ns, &b->job.stop, b->con);
	signals_burn(&b->sig, SIGNAL_UNWATCH);
	signals_burn(&b->sig, SIGNAL_AFTER);
	r->elapsed_ns = timing_now_ns() - r->t0_ns;
	r->ended = figures_ended(r);
	paths_current(b);
	if (b->have_results && (folder_sync(&b->res) || b->res.samples_lost)) {
		r->results_lost = 1;
		complain("cannot write the results: samples.csv in %s is "
			 "incomplete", b->res.dir);
	}
	signals_judge(r, 1, *b->stop);
	for (i = 0; i < r->n; i++)
		if (r->disks[i].snap.later_pass)
			record_note(r, "%s: %u units hold a later pass of this "
				    "run than pass %u, where its record ends: "
				    "written after the record's last "
				    "checkpoint (the run was cut off), they "
				    "are the run's own and not a loss",
				    r->disks[i].label,
				    r->disks[i].snap.later_pass,
				    r->disks[i].snap.verified_pass);
}

/* Every file but the last few, into the room held since the start. */
static void write_files(struct burn *b)
{
	struct record *r = b->r;
	const struct net_ports *ports = record_slot(r, NET_SLOT);
	char *html;
	size_t hlen;
	int i;

	folder_release(&b->res);
	save_units(b);
	html = report_html(r, &hlen);
	burn_keep(b, "report.html", html, hlen);
	free(html);
	save_health(b);
	burn_fault_keep(b);
	for (i = 0; ports && i < ports->n; i++) {
		const struct iperf *ip = &ports->port[i].ip;
		char name[64];

		snprintf(name, sizeof(name), "iperf3-%s.json", ip->nic);
		if (ip->kept)
			burn_keep(b, name, ip->kept, ip->kept_len);
	}
	if (r->inventory)
		burn_keep(b, "inventory.json", r->inventory, r->inventory_len);
	if (r->kmsg && folder_write_kmsg(&b->res, "/dev/kmsg"))
		complain("cannot write kmsg.log in %s", b->res.dir);
	burn_loop_checkpoint(b);
	/* What was lost so far is in the record: judge it in. */
	signals_judge(r, 1, *b->stop);
}

/*
 * The last files: ocptv.jsonl, result.json and summary.txt, the verdict
 * in each; *doc is judged again when one of them was lost.
 */
static void write_last(struct burn *b, const char *text, size_t tlen,
		       char **doc, size_t *dlen)
{
	struct record *r = b->r;
	char *jl;
	size_t jlen;

	/* The run in OCP Test & Validation's format, for pipelines. */
	jl = ocptv_jsonl(r, &jlen);
	burn_keep(b, "ocptv.jsonl", jl, jlen);
	free(jl);
	burn_keep(b, "result.json", *doc, *dlen);
	keep_index(b, *doc, *dlen);
	burn_keep(b, "summary.txt", text, tlen);
	if (r->results_lost) {
		/* The exit says it; the console must too. */
		signals_judge(r, 1, *b->stop);
		free(*doc);
		*doc = result_json(r, dlen);
	}
	folder_close(&b->res);
	b->have_results = 0;
}

/* The summary on the console, and result.json on stdout under --json. */
static void say_end(struct burn *b, const char *text, size_t tlen,
		    const char *doc, size_t dlen)
{
	struct record *r = b->r;

	fputc('\n', b->con);
	if (text)
		fwrite(text, 1, tlen, b->con);
	if (r->out)
		fprintf(b->con, "results: %s%s\n", r->lab.upload_only ?
			r->lab.upload : r->out, r->results_lost ?
			" (INCOMPLETE: some files could not be written)" : "");
	burn_console_check(b);
	/* Without --out, standard output is where the results are. */
	if (r->s->json && doc &&
	    (fwrite(doc, 1, dlen, stdout) != dlen || fflush(stdout) ||
	     ferror(stdout))) {
		complain("cannot write the results to standard output: %s%s%s",
			 strerror(errno), r->out ? "; they are in " : "",
			 r->out ? r->out : "");
		if (!r->out) {
			r->results_lost = 1;
			signals_judge(r, 1, *b->stop);
		}
	}
}

int burn_finish(struct burn *b)
{
	struct record *r = b->r;
	char *text = NULL, *doc;
	size_t tlen = 0, dlen = 0;

	after_burn(b);
	burn_end(b);
	/* Judged: the FAILed disks' fault LEDs lit, before the results. */
	leds_use_end(r, r->s->sysfs_root ? r->s->sysfs_root : b->env.sysroot);
	if (b->have_results)
		write_files(b);
	burn_end_certs(b);
	/* All but the last files at the lab's server, the verdict pushed. */
	lab_settle(b->lab, r);
	text = summary_string(r, &tlen);
	doc = result_json(r, &dlen);
	if (b->have_results)
		write_last(b, text, tlen, &doc, &dlen);
	if (b->lab) {
		int lost = r->results_lost;

		lab_finish(b->lab, r);
		/* Without a stick, a file lost there is a result lost. */
		if (r->results_lost != lost)
			signals_judge(r, 1, *b->stop);
	}
	say_end(b, text, tlen, doc, dlen);
	free(text);
	free(doc);
	return r->exit_code;
}
