/* SPDX-License-Identifier: MIT */
/*
 * Description: machine ids. Serials that differ only in bytes a folder
 * name cannot hold stay distinct ids (the safe form and 8 hex of the raw
 * serial's CRC32C); an id that needed no change is as it was; and a
 * pending power-cut folder or a run cut off, filed under an id of the
 * earlier form (bytes made '_', no hash), is still found at the next boot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "results/folder.h"
#include "discover/machine.h"
#include "cmd/run.h"

static void id_of(const char *serial, struct machine_system *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->serial, sizeof(s->serial), "%s", serial);
	machine_id_choose(s, NULL, 0);
}

static int safe(const char *id)
{
	for (; *id; id++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *id))
			return 0;
	return 1;
}

static void test_ids(void)
{
	struct machine_system a, b, c, s;
	struct machine_nic nic = { .name = "eth0",
				   .mac = "52:54:00:12:34:56" };
	char raw[128];

	id_of("a/b", &a);
	id_of("a b", &b);
	id_of("a_b", &c);
	/* crc32c("a/b") = 0xfb0b40a3, crc32c("a b") = 0x1c724a5e. */
	tap_ok(!strcmp(a.machine_id, "a_b-fb0b40a3") &&
	       !strcmp(b.machine_id, "a_b-1c724a5e") &&
	       !strcmp(c.machine_id, "a_b"),
	       "a/b, a b and a_b are three ids: %s, %s, %s", a.machine_id,
	       b.machine_id, c.machine_id);
	tap_ok(!strcmp(a.machine_id_old, "a_b") &&
	       !strcmp(b.machine_id_old, "a_b") &&
	       !strcmp(c.machine_id_old, "a_b"),
	       "the earlier form of each is a_b, where their folders were");

	id_of("SN-7.x_Y", &s);
	tap_ok(!strcmp(s.machine_id, "SN-7.x_Y") &&
	       !strcmp(s.machine_id_old, "SN-7.x_Y"),
	       "a safe serial is its id, unchanged: %s", s.machine_id);

	memset(&s, 0, sizeof(s));
	snprintf(s.serial, sizeof(s.serial), "To Be Filled By O.E.M.");
	machine_id_choose(&s, &nic, 1);
	tap_ok(!strcmp(s.machine_id, "525400123456") &&
	       !strcmp(s.machine_id_old, "525400123456"),
	       "a placeholder serial: the MAC without colons, unchanged: %s",
	       s.machine_id);

	id_of("A\xff", &s);
	tap_ok(!strcmp(s.machine_id, "A_-b0a97af0"),
	       "a byte that is not ASCII: '_' and the hash: %s", s.machine_id);

	memset(raw, 'x', sizeof(raw) - 1);
	raw[sizeof(raw) - 1] = 0;
	raw[0] = '/';
	id_of(raw, &s);
	tap_ok(strlen(s.machine_id) == sizeof(s.machine_id) - 1 &&
	       safe(s.machine_id) && s.machine_id[0] == '_' &&
	       s.machine_id[strlen(s.machine_id) - 9] == '-',
	       "the longest serial that needs a change: the hash still fits "
	       "(%zu characters)", strlen(s.machine_id));
	raw[0] = 'y';
	id_of(raw, &s);
	tap_ok(!strcmp(s.machine_id, raw),
	       "the longest safe serial: unchanged");
}

/* ROOT/kiln-results/ID/NAME/result.json: the v1 fixture, state pending. */
static void pending_folder(const char *root, const char *id, const char *name)
{
	tap_sh("mkdir -p '%s/kiln-results/%s/%s' && sed 's/\"state\": "
	       "\"interrupted\"/\"state\": \"pending\"/' "
	       "tests/fixtures/result/v1/result.json >'%s/kiln-results/%s/%s/"
	       "result.json'", root, id, name, root, id, name);
}

static void test_pending(void)
{
	struct machine_system a, c;
	char root[64], got[4096], want[4096];

	snprintf(root, sizeof(root), "/tmp/kiln-machine-%d", (int)getpid());
	id_of("a/b", &a);
	id_of("a_b", &c);
	tap_ok(!run_find_pending(root, &a, got, sizeof(got)),
	       "no results tree: nothing pending");

	pending_folder(root, "a_b", "20260101T000000Z-0000000000000001");
	snprintf(want, sizeof(want), "%s/kiln-results/a_b/"
		 "20260101T000000Z-0000000000000001", root);
	tap_ok(run_find_pending(root, &a, got, sizeof(got)) &&
	       !strcmp(got, want),
	       "serial a/b: a pending folder under the earlier id a_b is "
	       "found (%s)", got);
	tap_ok(run_find_pending(root, &c, got, sizeof(got)) &&
	       !strcmp(got, want),
	       "serial a_b: its own folder, as before");

	pending_folder(root, "a_b-fb0b40a3", "20260102T000000Z-0000000000000002");
	snprintf(want, sizeof(want), "%s/kiln-results/a_b-fb0b40a3/"
		 "20260102T000000Z-0000000000000002", root);
	tap_ok(run_find_pending(root, &a, got, sizeof(got)) &&
	       !strcmp(got, want),
	       "under both ids: the newest wins (%s)", got);
	snprintf(want, sizeof(want), "%s/kiln-results/a_b/"
		 "20260101T000000Z-0000000000000001", root);
	tap_ok(run_find_pending(root, &c, got, sizeof(got)) &&
	       !strcmp(got, want),
	       "serial a_b never takes a/b's folder");
	tap_sh("rm -rf '%s'", root);
}

/* Each folder finished, one after another in a list. */
static void finished(const char *dir, void *arg)
{
	char *list = arg;

	snprintf(list + strlen(list), 4096 - strlen(list), "%s\n", dir);
}

static void test_cut_off(void)
{
	struct machine_system a;
	struct folder f;
	char root[64], dir[256], err[256], list[4096] = "", want[4096];
	char *text;
	size_t len;
	FILE *con = fopen("/dev/null", "w");

	snprintf(root, sizeof(root), "/tmp/kiln-machine-%d", (int)getpid());
	snprintf(dir, sizeof(dir), "%s/kiln-results/a_b/"
		 "20260101T000000Z-0123456789abcdef", root);
	id_of("a/b", &a);
	/* Cut off: a checkpoint, no result.json. */
	text = tap_slurp("tests/fixtures/result/v1/result.json", &len);
	tap_sh("mkdir -p '%s/kiln-results'", root);
	if (folder_open(&f, dir, 4096, 0, err, sizeof(err)) ||
	    folder_checkpoint(&f, text, len))
		tap_bail("cannot make a cut-off folder in %s: %s", dir, err);
	folder_close(&f);
	free(text);
	snprintf(want, sizeof(want), "%s\n", dir);
	tap_ok(con && run_finish_cut_off(root, &a, con, finished, list) == 1 &&
	       !strcmp(list, want) &&
	       !access(strcat(dir, "/result.json"), F_OK),
	       "serial a/b: a run cut off under the earlier id a_b is "
	       "finished at the next boot");
	if (strcmp(list, want))
		tap_diag("finished: %s", list);
	if (con)
		fclose(con);
	tap_sh("rm -rf '%s'", root);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	tap_plan(13);
	TAP_RUN(test_ids);
	TAP_RUN(test_pending);
	TAP_RUN(test_cut_off);
	return tap_done();
}
