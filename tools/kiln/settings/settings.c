/* SPDX-License-Identifier: MIT */
/*
 * Description: the keys kiln understands (one table: type, default, help,
 * the commands that take each), and how their text values are read and
 * checked. Every value is checked here, wherever it comes from, so a bad
 * one is one clear line before anything touches a disk.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/http.h"
#include "settings/settings.h"

enum type { T_ENUM, T_SIZE, T_UINT, T_DURATION, T_FLAG, T_STRING, T_RUNID,
	    T_SPAN, T_MAXW, T_CONSENT, T_PATHS };

static const char *const modes[] = { "write-verify", "write", "verify",
				     "read", NULL };
static const char *const profiles[] = { "smoke", "burnin", "soak",
					"powercut", NULL };
static const char *const afters[] = { "wait", "poweroff", "reboot", "shell",
				      NULL };
static const char *const selftests[] = { "none", "short", "long", NULL };

#define F(field) offsetof(struct settings, field)
#define GLOBS "globs of serials, WWNs, models, names or PCI addresses"
#define B SCOPE_BURN
#define R SCOPE_RUN
#define TEST (SCOPE_BURN | SCOPE_RUN)
#define OPT SCOPE_OPTION_ONLY

/* Sorted by name: usage texts, kiln settings and README list them so. */
static const struct settings_key keys[] = {
	{ "after", T_ENUM, F(after), 0, 0, afters,
	  "wait, poweroff, reboot or shell", "wait",
	  "what the image does after a run: wait (the verdict stays on "
	  "screen), poweroff, reboot or shell", R | SCOPE_INIT },
	{ "bs", T_SIZE, F(bs), 0, 0, NULL, "a multiple of 4 KiB up to 64 MiB "
	  "such as 128k, 1M or 4M", "1M",
	  "bytes a request, a multiple of 4 KiB up to 64 MiB (128k, 4M)",
	  TEST },
	{ "checkpoint", T_UINT, F(checkpoint), 1, 86400, NULL,
	  "seconds, 1 to 86400", "60",
	  "seconds between result checkpoints", TEST },
	{ "cmdline", T_STRING, F(cmdline), 0, 0, NULL, "a file",
	  "/proc/cmdline",
	  "the kernel command line to read kiln.KEY=VALUE from", R | OPT },
	{ "config", T_STRING, F(config), 0, 0, NULL, "a file",
	  "ROOT/kiln.cfg", "the kiln.cfg to read", R | OPT },
	{ "countdown", T_UINT, F(countdown), 0, 3600, NULL,
	  "seconds, 0 to 3600", "10",
	  "seconds of countdown before anything is overwritten; a key on any "
	  "console stops it; 0 on a factory line", R },
	{ "deadline", T_UINT, F(deadline), 1, 86400, NULL,
	  "seconds, 1 to 86400", "60",
	  "seconds a request (or a read before the burn) may take before its "
	  "disk is stalled and FAILs", TEST | SCOPE_DISCOVER | SCOPE_PROBE },
	{ "destroy-data", T_CONSENT, F(destroy_data), 0, 0, NULL,
	  "1 or 0 (yes/no, true/false, on/off), or serials, WWNs and "
	  "identities separated by commas", "0",
	  "consent to overwrite disks that hold data: 1 for all, or serials, "
	  "WWNs or identities (loop:/path) separated by commas, disk by disk",
	  TEST },
	{ "duration", T_DURATION, F(duration), 0, 0, NULL,
	  "a time such as 90s, 30m, 12h, 2d or 1h30m", "none",
	  "repeat passes until this much time has gone (90s, 30m, 12h, 2d, "
	  "1h30m); a pass it cuts short still verifies what it wrote", TEST },
	{ "exclude", T_STRING, F(exclude), 0, 0, NULL, GLOBS, "none",
	  "disks never to touch: globs of serials, WWNs, models, kernel "
	  "names, controller PCI addresses or drivers, separated by commas "
	  "(a model with spaces in it matches whole); a glob that matches "
	  "no disk is said", R },
	{ "expect-disks", T_UINT, F(expect_disks), 0, 100000, NULL,
	  "a count, 0 for any", "0",
	  "fewer disks found is a FAIL (a disk is missing); 0: any", R },
	{ "from", T_STRING, F(from), 0, 0, NULL, "a run folder", "none",
	  "kiln burn --mode verify: the run folder of the write to check; its "
	  "result.json says the run id, each disk by identity, its region "
	  "and the last pass written, so a shrunk disk and a lost or reverted "
	  "pass FAIL", B },
	{ "get", T_STRING, F(get), 0, 0, NULL, "a key", "none",
	  "print the value in force of one key", SCOPE_SETTINGS | OPT },
	{ "include", T_STRING, F(include), 0, 0, NULL, GLOBS, "all",
	  "disks to test: the same globs as exclude", R },
	{ "interval", T_UINT, F(interval), 1, 3600, NULL, "seconds, 1 to 3600",
	  "10", "seconds between status lines", TEST },
	{ "iperf", T_STRING, F(iperf), 0, 0, NULL,
	  "an iperf3 server: HOST or HOST:PORT", "none",
	  "HOST or HOST:PORT of an iperf3 server: 30 s of iperf3 beside the "
	  "burn (the image then takes DHCP)", TEST | SCOPE_INIT },
	{ "json", T_FLAG, F(json), 0, 0, NULL, "1 or 0", "0",
	  "the result (or inventory) document on stdout, everything else on "
	  "stderr", TEST | SCOPE_DISCOVER | SCOPE_PROBE },
	{ "max-detail", T_UINT, F(max_detail), 0, 100000, NULL, "a count",
	  "100", "errors and bad units listed per disk (all are counted); a "
	  "run lists 32768 of each in all, so among many disks each lists "
	  "its share when that is less", TEST },
	{ "max-writes", T_MAXW, F(max_writes), 0, 1000000, NULL,
	  "a count of whole-disk writes, 0 for no cap", "2 on flash",
	  "whole-disk writes allowed, later passes only verify, so a soak "
	  "does not wear out SSDs (2 on non-rotational disks, else none); "
	  "0: no cap", TEST },
	{ "metrics", T_STRING, F(metrics), 0, 0, NULL,
	  "a Pushgateway: http://HOST:PORT/", "none",
	  "a Prometheus Pushgateway (http://HOST:PORT/): every interval each "
	  "disk's gauges (phase, bytes, MB/s, errors, bad units, verdict) are "
	  "pushed under job=kiln, machine=<machine id>", TEST | SCOPE_INIT },
	{ "mode", T_ENUM, F(mode), 0, 0, modes,
	  "write-verify, write, verify or read", "write-verify",
	  "write-verify, write (verify after a power cycle), verify (what a "
	  "write left) or read (never writes)", TEST },
	{ "net", T_FLAG, F(net), 0, 0, NULL, "1 or 0", "0",
	  "the image takes DHCP even when not PXE-booted (the init reads it)",
	  R | SCOPE_INIT },
	{ "offset", T_SIZE, F(offset), 0, 0, NULL,
	  "a size such as 0, 1M or 10G", "0",
	  "start this far into each disk", TEST },
	{ "out", T_STRING, F(out), 0, 0, NULL, "a folder", "none",
	  "kiln burn: the run folder, absent or empty (default: a new one "
	  "under ./kiln-results/<machine id>/); kiln fleet: the folder for "
	  "fleet.html and fleet.csv (default: the current one)",
	  B | SCOPE_FLEET },
	{ "passes", T_UINT, F(passes), 1, 1000000, NULL, "a count, 1 or more",
	  "1", "passes to make; each writes a new pass number, so stale data "
	  "is caught (with duration: as many as it allows)", TEST },
	{ "profile", T_ENUM, F(profile), 0, 0, profiles,
	  "smoke, burnin, soak or powercut", "burnin",
	  "smoke (a quick span, one pass: minutes), burnin (one whole "
	  "write-verify pass), soak (passes until duration, 12 h unless set), "
	  "powercut (write and flush one pass, then CUT THE POWER: the next "
	  "boot verifies what the disks kept)", R },
	{ "protect", T_PATHS, F(protect), 0, 0, NULL, "a block device",
	  "none", "a device never to touch, not even with destroy-data (the "
	  "boot or results medium); may be given again",
	  R | SCOPE_DISCOVER | OPT },
	{ "qd", T_UINT, F(qd), 1, 256, NULL, "a count from 1 to 256", "8",
	  "requests in flight per disk, 1-256; fewer for every disk when "
	  "their buffers do not fit the memory (a note says so)", TEST },
	{ "results", T_STRING, F(results), 0, 0, NULL, "a folder", "none",
	  "where run folders go: ROOT/kiln-results/MACHINE/RUN/", R | OPT },
	{ "run-id", T_RUNID, F(run_id), 0, 0, NULL, "1 to 16 hex digits",
	  "random", "with mode verify only: the run id (hex) of the write to "
	  "check; a run that writes always draws a new one", TEST },
	{ "save-units", T_UINT, F(save_units), 0, 1000, NULL, "a count", "4",
	  "bad units saved whole per disk, with what was expected", TEST },
	{ "selftest", T_ENUM, F(selftest), 0, 0, selftests,
	  "none, short or long", "none",
	  "after the burn, a SMART or NVMe self-test on every disk that has "
	  "one: short (minutes) or long (hours); one that fails FAILs its "
	  "disk", TEST },
	{ "sensors", T_DURATION, F(sensors), 0, 0, NULL,
	  "a time such as 30s, 5m or 1h; 0: at the start and end only", "60",
	  "seconds between samples of the machine's own signals (drive "
	  "temperatures and SMART/NVMe counters through smartctl, hwmon, "
	  "EDAC, PCIe AER); 0: only at the start and the end", TEST },
	{ "settle", T_UINT, F(settle), 1, 3600, NULL, "seconds, 1 to 3600",
	  "60", "seconds the init waits at most for the set of disks to stop "
	  "changing (RAID firmware can take 40 s and more)", R | SCOPE_INIT },
	{ "size", T_SIZE, F(size), 0, 0, NULL, "a size such as 64M or 10G",
	  "none", "kiln burn: the size of a file target it creates", B },
	{ "slow-fail", T_UINT, F(slow_fail), 0, 100, NULL,
	  "a percentage, 0 to 100", "50",
	  "a disk whose solo rate is below this percentage of the median of "
	  "three or more like disks' solo rates FAILs as slow (needs solo); "
	  "0: never; not above slow-warn (the default follows a lower one)",
	  TEST },
	{ "slow-warn", T_UINT, F(slow_warn), 1, 100, NULL,
	  "a percentage, 1 to 100", "85",
	  "a disk whose rate (or time to finish) is worse than this "
	  "percentage of the median of three or more like disks (model, "
	  "firmware, capacity, controller) WARNs as slow", TEST },
	{ "solo", T_DURATION, F(solo), 0, 0, NULL,
	  "a time such as 30s or 2m, 0 for none", "0",
	  "before the burn, read each disk alone this long, so a slow disk "
	  "is told from a busy controller and the controller's limit from "
	  "the drives'; 0: no solo phase", TEST },
	{ "span", T_SPAN, F(span), 0, 0, NULL,
	  "a size such as 10G, or quick, or quick:SIZE", "to the end",
	  "test this much from offset; quick or quick:SIZE tests SIZE (3 GiB) "
	  "in three pieces at the start, middle and end", TEST },
	{ "stale", T_DURATION, F(stale), 0, 0, NULL,
	  "a time such as 90s, 10m or 2h", "10m",
	  "kiln fleet: a run with checkpoints and no result.json whose "
	  "newest checkpoint is older than this was cut off; a younger one "
	  "is still running", SCOPE_FLEET | OPT },
	{ "sysfs-root", T_STRING, F(sysfs_root), 0, 0, NULL, "a folder",
	  "/sys", "read a captured sysfs tree instead of the machine's "
	  "(no disk is read); kiln burn: for the machine's sensors only "
	  "(hwmon, EDAC, AER), as tests do", SCOPE_DISCOVER | B | OPT },
	{ "temp-warn", T_UINT, F(temp_warn), 0, 150, NULL,
	  "degrees Celsius, 0 to 150", "0",
	  "degrees Celsius at which a drive's temperature WARNs, for every "
	  "drive; 0: the drive's own limit when it reports one, else 60 for "
	  "HDDs and 70 for SSDs", TEST },
	{ "upload", T_STRING, F(upload), 0, 0, NULL,
	  "a server taking PUT: http://HOST[:PORT]/PATH/", "none",
	  "a lab server taking HTTP PUT (http://HOST[:PORT]/PATH/): the run "
	  "folder goes to PATH/<machine id>/<run folder>/, checkpoints as the "
	  "run goes and every file at the end; without a stick it is where "
	  "the results live", TEST | SCOPE_INIT },
};

#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

_Static_assert(sizeof(keys) / sizeof(keys[0]) <= SETTINGS_MAX_KEYS,
	       "struct settings keeps a source per key");

/* What quick samples: this much in all, a third each at start, middle, end. */
#define QUICK_DEFAULT (3ull << 30)
/* The largest request: registered buffers are capped at 1 GiB each anyway. */
#define MAX_BS (64ull << 20)
#define UNIT (4096ull)

static int set_value(struct settings *s, const struct settings_key *k,
		     const char *value);

/*
 * Every default is the key table's own .def, parsed as a value would be
 * (fio's parse.c fills its options so): a default written a second time
 * is one that drifts. A .def that says what kiln does instead of a value
 * ("none", "to the end", "2 on flash", "random") and the paths and
 * strings leave the field zero, which is how the code knows to do it.
 */
void settings_defaults(struct settings *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	/* A value that does not parse sets nothing: the field stays zero. */
	for (i = 0; i < NKEYS; i++)
		if (keys[i].type != T_STRING && keys[i].type != T_PATHS)
			(void)set_value(s, &keys[i], keys[i].def);
}

void settings_free(struct settings *s)
{
	char **strings[] = { &s->out, &s->destroy_list, &s->include,
			     &s->exclude, &s->iperf, &s->results, &s->config,
			     &s->cmdline, &s->get, &s->sysfs_root, &s->from,
			     &s->upload, &s->metrics };
	size_t i;

	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		free(*strings[i]);
		*strings[i] = NULL;
	}
	for (i = 0; i < (size_t)s->nprotect; i++)
		free(s->protect[i]);
	s->nprotect = 0;
}

const char *settings_mode_name(int mode)
{
	return mode >= 0 && mode <= SETTINGS_READ ? modes[mode] : "unknown";
}

const struct settings_key *settings_key_at(int i)
{
	return i >= 0 && i < NKEYS ? &keys[i] : NULL;
}

const struct settings_key *settings_key(const char *name)
{
	int i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int settings_key_is_flag(const struct settings_key *k)
{
	return k->type == T_FLAG || k->type == T_CONSENT;
}

int settings_flag_word(const char *t)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(t, yes[i]))
			return 1;
		if (!strcasecmp(t, no[i]))
			return 0;
	}
	return -1;
}

unsigned settings_passes(const struct settings *s)
{
	const struct settings_key *k = settings_key("passes");

	/* Not given: one, or as many as the duration allows. */
	if (s->duration && s->source[k - keys] == SOURCE_DEFAULT)
		return 0;
	return s->passes;
}

int settings_parse_uint(const char *text, unsigned max, unsigned *out)
{
	unsigned long long v = 0;
	const char *p = text;

	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (unsigned)(*p - '0');
		if (v > max)
			return -ERANGE;
	}
	*out = (unsigned)v;
	return 0;
}

/* Digits, then an optional binary suffix: k, M, G, T, P, each with "iB". */
int settings_parse_size(const char *text, uint64_t *out)
{
	static const char suffixes[] = "kmgtp";
	const char *p = text, *s;
	uint64_t v = 0;
	int shift = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		char c = *p >= 'A' && *p <= 'Z' ? *p + 32 : *p;

		s = strchr(suffixes, c);
		if (!s || !c)
			return -EINVAL;
		shift = 10 * (int)(s - suffixes + 1);
		p++;
		if (!strcmp(p, "iB"))
			p += 2;
		if (*p)
			return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/*
 * Seconds alone ("90"), or numbers with units from d, h, m, s, each unit
 * once and larger ones first ("1h30m", "2d", "90s"). Anything else is
 * refused, not guessed at: "1h30" could mean 30 minutes or 30 seconds.
 */
int settings_parse_duration(const char *text, uint64_t *seconds)
{
	static const char units[] = "dhms";
	static const uint64_t scale[] = { 86400, 3600, 60, 1 };
	const char *p = text;
	uint64_t total = 0;
	int last = -1;

	if (!*p)
		return -EINVAL;
	while (*p) {
		uint64_t v = 0;
		const char *u;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (v > 1000000000ull)
				return -ERANGE;
			v = v * 10 + (uint64_t)(*p - '0');
		}
		if (!*p) {
			/* A bare number is seconds, and only alone. */
			if (last >= 0)
				return -EINVAL;
			total = v;
			break;
		}
		u = strchr(units, *p);
		if (!u || (int)(u - units) <= last)
			return -EINVAL;
		last = (int)(u - units);
		total += v * scale[last];
		p++;
		if (total > 100ull * 365 * 86400)
			return -ERANGE;
	}
	if (total > 100ull * 365 * 86400)
		return -ERANGE;
	*seconds = total;
	return 0;
}

static int parse_runid(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	int n = 0;

	for (; *text; text++, n++) {
		char c = *text;

		if (n == 16)
			return -EINVAL;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint64_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint64_t)(c - 'A' + 10);
		else
			return -EINVAL;
	}
	/* 0 is no run id: kiln would draw a fresh one and check for it. */
	if (!n || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

static int set_string(char **field, const char *value)
{
	char *copy;

	if (!*value)
		return -EINVAL;
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

static int set_value(struct settings *s, const struct settings_key *k,
		     const char *value)
{
	char *field = (char *)s + k->off;
	uint64_t u64;
	unsigned u;
	int i, ret = 0;

	switch (k->type) {
	case T_ENUM:
		for (i = 0; k->choices[i]; i++)
			if (!strcmp(value, k->choices[i])) {
				*(int *)(void *)field = i;
				return 0;
			}
		return -EINVAL;
	case T_SIZE:
		ret = settings_parse_size(value, &u64);
		if (!ret)
			memcpy(field, &u64, sizeof(u64));
		return ret;
	case T_DURATION:
		ret = settings_parse_duration(value, &u64);
		if (!ret)
			memcpy(field, &u64, sizeof(u64));
		return ret;
	case T_MAXW:
		ret = settings_parse_uint(value, k->max, &u);
		if (!ret) {
			s->max_writes = u;
			s->max_writes_set = 1;
		}
		return ret;
	case T_UINT:
		ret = settings_parse_uint(value, k->max, &u);
		if (!ret && u < k->min)
			ret = -ERANGE;
		if (!ret)
			memcpy(field, &u, sizeof(u));
		return ret;
	case T_FLAG:
		i = settings_flag_word(value);
		if (i < 0)
			return -EINVAL;
		*(int *)(void *)field = i;
		return 0;
	case T_STRING:
		return set_string((char **)(void *)field, value);
	case T_PATHS:
		if (!*value)
			return -EINVAL;
		if (s->nprotect == SETTINGS_MAX_PROTECT)
			return -E2BIG;
		s->protect[s->nprotect] = strdup(value);
		if (!s->protect[s->nprotect])
			return -ENOMEM;
		s->nprotect++;
		return 0;
	case T_CONSENT: {
		char *copy = NULL;

		if (!*value || strspn(value, ", ") == strlen(value))
			return -EINVAL;
		/* A flag word is all or nothing, never a serial named "no". */
		i = settings_flag_word(value);
		if (i < 0) {
			copy = strdup(value);
			if (!copy)
				return -ENOMEM;
		}
		free(s->destroy_list);
		s->destroy_list = copy;
		s->destroy_data = i == 1;
		return 0;
	}
	case T_RUNID:
		ret = parse_runid(value, &s->run_id);
		if (!ret)
			s->run_id_set = 1;
		return ret;
	case T_SPAN:
		if (!strcmp(value, "quick")) {
			s->quick = 1;
			s->span = QUICK_DEFAULT;
			return 0;
		}
		if (!strncmp(value, "quick:", 6)) {
			ret = settings_parse_size(value + 6, &u64);
			if (!ret && !u64)
				ret = -EINVAL;
			if (!ret) {
				s->quick = 1;
				s->span = u64;
			}
			return ret;
		}
		ret = settings_parse_size(value, &u64);
		if (!ret) {
			s->quick = 0;
			s->span = u64;
		}
		return ret;
	}
	return -EINVAL;
}

/* A key as its source writes it: --bs on kiln's command line, else bs. */
static const char *as_given(int source, const char *key, char *buf,
			    size_t len)
{
	if (source != SOURCE_OPTION)
		return key;
	snprintf(buf, len, "--%s", key);
	return buf;
}

int settings_set(struct settings *s, const struct settings_key *k,
		 const char *value, int source, char *err, size_t errlen)
{
	char name[72];
	int ret;

	ret = set_value(s, k, value);
	if (ret == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		return ret;
	}
	if (ret == -E2BIG) {
		snprintf(err, errlen, "too many --%s (at most %d)", k->name,
		    SETTINGS_MAX_PROTECT);
		return -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (want %s)",
		    as_given(source, k->name, name, sizeof(name)), value,
		    k->want);
		return -EINVAL;
	}
	s->source[k - keys] = (unsigned char)source;
	return 0;
}

static int source_of(const struct settings *s, const char *key)
{
	const struct settings_key *k = settings_key(key);

	return k ? s->source[k - keys] : SOURCE_DEFAULT;
}

int settings_check(const struct settings *s, char *err, size_t errlen)
{
	char name[72], why[240];
	struct http_url url;

	if (!s->bs || s->bs % UNIT || s->bs > MAX_BS) {
		snprintf(err, errlen, "bad value for %s: %llu (want a multiple "
			 "of 4 KiB up to 64 MiB)",
			 as_given(source_of(s, "bs"), "bs", name, sizeof(name)),
			 (unsigned long long)s->bs);
		return -EINVAL;
	}
	as_given(source_of(s, "span"), "span", name, sizeof(name));
	if (s->span && !s->quick && s->span < UNIT) {
		snprintf(err, errlen, "bad value for %s: %llu (want 4 KiB or "
			 "more)", name, (unsigned long long)s->span);
		return -EINVAL;
	}
	if (s->quick && s->span < 3 * UNIT) {
		snprintf(err, errlen, "bad value for %s: quick:%llu (want at "
			 "least 12 KiB: three pieces of a 4 KiB unit)", name,
			 (unsigned long long)s->span);
		return -EINVAL;
	}
	if (s->slow_fail > s->slow_warn &&
	    source_of(s, "slow-fail") != SOURCE_DEFAULT) {
		snprintf(err, errlen, "bad value for %s: %u (above slow-warn, "
			 "%u: a disk would FAIL as slow where it does not "
			 "WARN)",
			 as_given(source_of(s, "slow-fail"), "slow-fail", name,
				  sizeof(name)), s->slow_fail, s->slow_warn);
		return -EINVAL;
	}
	if (s->upload && http_url_parse(s->upload, &url, why, sizeof(why))) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (%s)",
			 as_given(source_of(s, "upload"), "upload", name,
				  sizeof(name)), s->upload, why);
		return -EINVAL;
	}
	if (s->metrics && http_url_parse(s->metrics, &url, why, sizeof(why))) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (%s)",
			 as_given(source_of(s, "metrics"), "metrics", name,
				  sizeof(name)), s->metrics, why);
		return -EINVAL;
	}
	if (s->mode == SETTINGS_VERIFY && !s->run_id_set && !s->from) {
		snprintf(err, errlen, "mode verify needs the record of the "
			 "write it checks: --from RUN_DIR, or at least its "
			 "--run-id");
		return -EINVAL;
	}
	if (s->from && s->mode != SETTINGS_VERIFY) {
		snprintf(err, errlen, "--from is for --mode verify: it names "
			 "the run folder of the write to check");
		return -EINVAL;
	}
	if (s->from && s->run_id_set) {
		snprintf(err, errlen, "--from says the run id: give --from or "
			 "--run-id, not both");
		return -EINVAL;
	}
	/*
	 * A run that writes draws a fresh run id, always: given an old one,
	 * a disk that drops every write would read back the old run's data
	 * and pass.
	 */
	if (s->run_id_set && s->mode != SETTINGS_VERIFY) {
		snprintf(err, errlen, "run-id is only for mode verify: a run "
			 "that writes always draws a new one");
		return -EINVAL;
	}
	return 0;
}

const char *settings_get(const struct settings *s, const char *key, char *buf,
			 size_t len)
{
	const struct settings_key *k = settings_key(key);
	const char *field;

	if (!k)
		return NULL;
	field = (const char *)s + k->off;
	buf[0] = 0;
	switch (k->type) {
	case T_ENUM:
		snprintf(buf, len, "%s",
			 k->choices[*(const int *)(const void *)field]);
		break;
	case T_SIZE:
	case T_DURATION:
		snprintf(buf, len, "%llu", (unsigned long long)
			 *(const uint64_t *)(const void *)field);
		break;
	case T_UINT:
		snprintf(buf, len, "%u",
			 *(const unsigned *)(const void *)field);
		break;
	case T_FLAG:
		snprintf(buf, len, "%d", *(const int *)(const void *)field);
		break;
	case T_STRING:
		snprintf(buf, len, "%s", *(char *const *)(const void *)field ?
			 *(char *const *)(const void *)field : "");
		break;
	case T_PATHS: {
		size_t used = 0;
		int i;

		for (i = 0; i < s->nprotect && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? "," : "", s->protect[i]);
		break;
	}
	case T_RUNID:
		if (s->run_id_set)
			snprintf(buf, len, "%016llx",
				 (unsigned long long)s->run_id);
		break;
	case T_SPAN:
		if (s->quick)
			snprintf(buf, len, "quick:%llu",
				 (unsigned long long)s->span);
		else
			snprintf(buf, len, "%llu", (unsigned long long)s->span);
		break;
	case T_MAXW:
		if (s->max_writes_set)
			snprintf(buf, len, "%u", s->max_writes);
		break;
	case T_CONSENT:
		snprintf(buf, len, "%s", s->destroy_list ? s->destroy_list :
			 s->destroy_data ? "1" : "0");
		break;
	}
	return buf;
}

const char *settings_source(const struct settings *s, const char *key)
{
	static const char *const names[] = { "default", "kiln.cfg",
					     "kernel command line", "option" };
	const struct settings_key *k = settings_key(key);

	return k ? names[s->source[k - keys] & 3] : NULL;
}

void settings_table(FILE *f)
{
	int i;

	fprintf(f, "| key | default | what |\n| --- | --- | --- |\n");
	for (i = 0; i < NKEYS; i++)
		if (!(keys[i].scope & SCOPE_OPTION_ONLY))
			fprintf(f, "| `%s` | %s | %s |\n", keys[i].name,
				keys[i].def, keys[i].help);
}

char *settings_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}
