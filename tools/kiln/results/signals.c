/* SPDX-License-Identifier: MIT */
/*
 * Description: the table of the machine's signals (see signal.h). A new
 * signal is its own file, which fills a signal_ops named NAME_signal, and
 * one line here; the table's order is the order result.json, summary.txt
 * and report.html say the signals in, and a burn calls their burn hooks
 * and the judging their rules in.
 */
#include <stddef.h>
#include <string.h>

#include "results/signal.h"

#define SIGNALS \
	X(smart) \
	X(peers) \
	X(vitals) \
	X(blame) \
	X(dips) \
	X(nvme) \
	X(linkerr) \
	X(net) \
	X(stress) \
	X(bmc) \
	X(end)

#define X(name) extern const struct signal_ops name##_signal;
SIGNALS
#undef X

const struct signal_ops *const signals[] = {
#define X(name) &name##_signal,
	SIGNALS
#undef X
	NULL
};

const struct signal_ops *signal_find(const char *name)
{
	for (SIGNAL_EACH(s))
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}

int signals_columns(const struct signal_column **cols, int max)
{
	const struct signal_column *c;
	int n = 0;

	for (SIGNAL_EACH(s))
		for (c = (*s)->columns; c && c->name; c++, n++)
			if (n < max)
				cols[n] = c;
	return n;
}

void signals_ctrl(const struct record *r, int k,
		  void (*said)(void *arg, const char *text), void *arg)
{
	char buf[600];
	const char *t;
	size_t i;

	for (i = 0; signals[i]; i++) {
		if (!signals[i]->ctrl)
			continue;
		buf[0] = 0;
		t = signals[i]->ctrl(r, k, buf, sizeof(buf));
		if (t && t[0])
			said(arg, t);
	}
}

void signals_burn(struct signal_burn *sb, enum signal_at at)
{
	size_t n = 0;

	/* The load stops last started, first stopped: stress, then iperf3. */
	if (at == SIGNAL_UNLOAD) {
		while (signals[n])
			n++;
		while (n--)
			if (signals[n]->burn)
				signals[n]->burn(sb, at);
		return;
	}
	for (SIGNAL_EACH(s))
		if ((*s)->burn)
			(*s)->burn(sb, at);
}

/* Every signal's judge hook at one place of the judging (record.h). */
static void rules(struct record *r, struct record_disk *d, int final,
		  enum judge_at at)
{
	for (SIGNAL_EACH(s))
		if ((*s)->judge)
			(*s)->judge(r, d, final, at);
}

void signals_judge(struct record *r, int final, int interrupted)
{
	record_judge(r, rules, final, interrupted);
}
