/* SPDX-License-Identifier: MIT */
/*
 * Description: what no single value shows: settings that are wrong
 * together, or wrong for every target, each refused in one line that
 * names the key as its source wrote it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/http.h"
#include "base/secret.h"
#include "settings/iperfspec.h"
#include "settings/keys.h"
#include "settings/settings.h"

static int source_of(const struct settings *s, const char *key)
{
	const struct settings_key *k = settings_key(key);

	return k ? s->source[settings_key_index(k)] : SOURCE_DEFAULT;
}

/* The key as the source of its value wrote it: --bs, or bs in kiln.cfg. */
static const char *named(const struct settings *s, const char *key, char *buf,
			 size_t len)
{
	return settings_key_as_given(source_of(s, key), key, buf, len);
}

int settings_safe_id(const char *id)
{
	size_t n = strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
			  "vwxyz0123456789._-");

	return n && n == strlen(id) && n < 64 && id[0] != '.' && id[0] != '-';
}

/* One of the lab's URLs, with its ca and auth-token, said masked if bad. */
static int bad_url(const struct settings *s, const char *key,
		   const char *text, char *err, size_t errlen)
{
	struct http_url url;
	char why[300], name[64], shown[128];

	if (!text || !settings_url(s, text, &url, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "bad value for %s: '%s' (%s)",
		 named(s, key, name, sizeof(name)),
		 secret_mask(text, shown, sizeof(shown)), why);
	return 1;
}

int settings_check(const struct settings *s, char *err, size_t errlen)
{
	char name[72], value[48], why[300];

	if (!s->bs || s->bs % KEY_UNIT || s->bs > KEY_MAX_BS) {
		snprintf(err, errlen, "bad value for %s: %s (want a multiple "
			 "of 4 KiB up to 64 MiB)",
			 named(s, "bs", name, sizeof(name)),
			 settings_size_given(s, "bs", s->bs, value,
					     sizeof(value)));
		return -EINVAL;
	}
	named(s, "span", name, sizeof(name));
	if (s->span && !s->quick && s->span < KEY_UNIT) {
		snprintf(err, errlen, "bad value for %s: %s (want 4 KiB or "
			 "more)", name, settings_size_given(s, "span", s->span,
						    value, sizeof(value)));
		return -EINVAL;
	}
	if (s->quick && s->span < 3 * KEY_UNIT) {
		snprintf(err, errlen, "bad value for %s: %s (want at least 12 "
			 "KiB: three pieces of a 4 KiB unit)", name,
			 settings_size_given(s, "span", s->span, value,
					     sizeof(value)));
		return -EINVAL;
	}
	if (s->slow_fail > s->slow_warn &&
	    source_of(s, "slow-fail") != SOURCE_DEFAULT) {
		snprintf(err, errlen, "bad value for %s: %u (above slow-warn, "
			 "%u: a disk would FAIL as slow where it does not "
			 "WARN)",
			 named(s, "slow-fail", name, sizeof(name)),
			 s->slow_fail, s->slow_warn);
		return -EINVAL;
	}
	if (s->machine_id && !settings_safe_id(s->machine_id)) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (want 1 to "
			 "63 letters, digits and ._-, not starting with . or -: "
			 "it names a folder)",
			 named(s, "machine-id", name, sizeof(name)),
			 s->machine_id);
		return -EINVAL;
	}
	if (bad_url(s, "upload", s->upload, err, errlen) ||
	    bad_url(s, "lab", s->lab, err, errlen) ||
	    bad_url(s, "metrics", s->metrics, err, errlen))
		return -EINVAL;
	if (s->iperf && iperfspec_check(s->iperf, why, sizeof(why))) {
		snprintf(err, errlen, "bad value for %s: '%.100s' (%s)",
			 named(s, "iperf", name, sizeof(name)), s->iperf, why);
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
	/* An erase that keeps the disk as it is would erase nothing. */
	if (s->profile == SETTINGS_ERASE && s->end == SETTINGS_END_KEEP &&
	    source_of(s, "end") != SOURCE_DEFAULT) {
		snprintf(err, errlen, "profile erase leaves each disk by "
			 "end=discard, zero or sanitize: %s=keep erases "
			 "nothing", named(s, "end", name, sizeof(name)));
		return -EINVAL;
	}
	if (s->profile == SETTINGS_ERASE && (s->mode == SETTINGS_VERIFY ||
					     s->mode == SETTINGS_READ)) {
		snprintf(err, errlen, "profile erase writes its disks: %s "
			 "%s does not", named(s, "mode", name, sizeof(name)),
			 settings_mode_name(s->mode));
		return -EINVAL;
	}
	if (s->run_id_set && s->mode != SETTINGS_VERIFY) {
		snprintf(err, errlen, "run-id is only for mode verify: a run "
			 "that writes always draws a new one");
		return -EINVAL;
	}
	return 0;
}
