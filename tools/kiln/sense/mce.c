/* SPDX-License-Identifier: MIT */
/*
 * Description: machine checks read from the kernel's log (see mce.h), in
 * the formats of the kernel's own printer (__print_mce()) and of AMD's
 * decoder, tallied by CPU and bank.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sense/mce.h"

/* A hexadecimal number at p (an optional 0x): 0, or -1 when none. */
static int hex_at(const char *p, uint64_t *v)
{
	if (!strncmp(p, "0x", 2))
		p += 2;
	if (!isxdigit((unsigned char)*p))
		return -1;
	*v = strtoull(p, NULL, 16);
	return 0;
}

/* A CPU or bank number at p: the text after it, or NULL when none. */
static const char *num_at(const char *p, int *v)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)*p))
		return NULL;
	n = strtol(p, &end, 10);
	if (n < 0 || n > 1000000)
		return NULL;
	*v = (int)n;
	return end;
}

static void record(struct mce_line *l, uint64_t status)
{
	l->status = status;
	l->pcc = !!(status & MCE_STATUS_PCC);
	l->kind = status & MCE_STATUS_UC ? MCE_UNCORRECTED : MCE_CORRECTED;
}

/* "CPU 3: Machine Check: 0 Bank 5: be00000000800400" (and Exception). */
static int intel_form(const char *p, struct mce_line *l)
{
	uint64_t status;
	int cpu, b;

	if (strncmp(p, "CPU ", 4) || !(p = num_at(p + 4, &cpu)) ||
	    strncmp(p, ": Machine Check", 15))
		return 0;
	p = strstr(p, " Bank ");
	if (!p || !(p = num_at(p + 6, &b)) || strncmp(p, ": ", 2) ||
	    hex_at(p + 2, &status))
		return 0;
	l->cpu = cpu;
	l->bank = b;
	record(l, status);
	return 1;
}

/* "CPU:3 (17:31:0) MC5_STATUS[-|CE|MiscV|...]: 0x9c2040000000011b". */
static int amd_form(const char *p, struct mce_line *l)
{
	const char *mc, *end;
	uint64_t status;
	int cpu, b;

	if (strncmp(p, "CPU:", 4) || !num_at(p + 4, &cpu))
		return 0;
	mc = strstr(p, " MC");
	if (!mc || !(mc = num_at(mc + 3, &b)) || strncmp(mc, "_STATUS[", 8))
		return 0;
	mc += 8;
	end = strstr(mc, "]: ");
	if (end && !hex_at(end + 3, &status)) {
		record(l, status);
	} else if (strstr(mc, "|UE")) {
		/* A line cut short: the decoder's own word for it. */
		l->kind = MCE_UNCORRECTED;
		l->pcc = strstr(mc, "|PCC") != NULL;
	} else if (strstr(mc, "|CE")) {
		l->kind = MCE_CORRECTED;
	} else {
		return 0;
	}
	l->cpu = cpu;
	l->bank = b;
	return 1;
}

int mce_parse(const char *text, struct mce_line *l)
{
	const char *p = text;

	memset(l, 0, sizeof(*l));
	l->cpu = l->bank = -1;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "mce: ", 5))
		p += 5;
	if (strstr(p, "Uncorrected hardware memory error")) {
		l->kind = MCE_UNCORRECTED;
		return l->kind;
	}
	if (strncmp(p, "[Hardware Error]: ", 18))
		return l->kind = strstr(p, "Machine check events logged") ?
				 MCE_LOGGED : MCE_NONE;
	p += 18;
	if (!strncmp(p, "Machine check events logged", 27))
		l->kind = MCE_LOGGED;
	else if (!intel_form(p, l))
		amd_form(p, l);
	return l->kind;
}

static void add_bank(struct mce_tally *t, const struct mce_line *l)
{
	struct mce_bank *b = NULL;
	int i;

	for (i = 0; i < t->nbanks && !b; i++)
		if (t->banks[i].cpu == l->cpu && t->banks[i].bank == l->bank)
			b = &t->banks[i];
	if (!b) {
		if (t->nbanks == MCE_BANKS) {
			t->unkept++;
			return;
		}
		b = &t->banks[t->nbanks++];
		b->cpu = l->cpu;
		b->bank = l->bank;
		b->status = l->status;
	}
	b->n++;
	b->uncorrected |= l->kind == MCE_UNCORRECTED;
	b->pcc |= l->pcc;
}

int mce_add(struct mce_tally *t, const char *text)
{
	struct mce_line l;

	switch (mce_parse(text, &l)) {
	case MCE_CORRECTED:
		t->corrected++;
		break;
	case MCE_UNCORRECTED:
		t->uncorrected++;
		break;
	case MCE_LOGGED:
		t->logged++;
		return l.kind;
	default:
		return l.kind;
	}
	if (l.cpu >= 0)
		add_bank(t, &l);
	return l.kind;
}
