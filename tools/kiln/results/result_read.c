/* SPDX-License-Identifier: MIT */
/*
 * Description: result.json read back as the run record a later verify
 * trusts (result_load: per disk its identity, size, region and the last
 * pass written), from result.json or its newest good checkpoint, of every
 * schema version kiln has written; and the one schema check every reader
 * of a run's document makes (result_schema).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "results/folder.h"
#include "results/result_keys.h"
#include "results/result.h"
#include "results/result_target.h"

int result_too_large(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size <= RESULT_MAX_BYTES)
		return 0;
	snprintf(err, errlen, "%s is %llu bytes, over the limit of %zu that "
		 "kiln reads (a record of a kiln before schema 3, which kept "
		 "every pass)", path, (unsigned long long)st.st_size,
		 (size_t)RESULT_MAX_BYTES);
	return -EFBIG;
}

int result_checkpoint_too_large(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int i, ret;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			 folder_checkpoints[i]);
		ret = result_too_large(path, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* The schema check alone: the version, or -EBADMSG with why. */
static int schema_of(const struct jsonread_node *root, char *err,
		     size_t errlen)
{
	uint64_t version = jsonread_u64(root, KEY_SCHEMA_VERSION, 0);

	if (strcmp(jsonread_str(root, KEY_SCHEMA, ""), RESULT_SCHEMA_NAME)) {
		snprintf(err, errlen, "not a kiln result (no \"schema\": "
			 "\"kiln-result\")");
		return -EBADMSG;
	}
	if (version < 1 || version > RESULT_SCHEMA) {
		snprintf(err, errlen, "schema version %llu, which this kiln "
			 "does not know (it reads 1 to %d)",
			 (unsigned long long)version, RESULT_SCHEMA);
		return -EBADMSG;
	}
	return (int)version;
}

int result_schema(const struct jsonread_node *root, char *err,
		  size_t errlen)
{
	int version = schema_of(root, err, errlen);

	if (version > 0 && version < RESULT_SCHEMA_UTF8)
		jsonread_bytes_latin1(root);
	return version;
}

static const char *mode_namer(int i)
{
	return engine_mode_name(i);
}

/*
 * Version 1 records have no last_pass_* fields: the last write pass and
 * how far it got are read off the pass list (bytes moved stand in for
 * how far a pass got, exact unless it met errors).
 */
static void last_write_v1(const struct jsonread_node *t, struct result_disk *d)
{
	const struct jsonread_node *passes = jsonread_get(t, KEY_PASSES);
	size_t i;

	for (i = 0; i < jsonread_count(passes); i++) {
		const struct jsonread_node *p = jsonread_at(passes, i);
		const char *phase = jsonread_str(p, KEY_PHASE, "");

		if (strcmp(phase, engine_phase_name(PHASE_WRITE)))
			continue;
		d->last_written = (uint32_t)jsonread_u64(p, KEY_PASS, 0);
		d->last_reached = jsonread_u64(p, KEY_BYTES, 0);
		d->complete = jsonread_bool(p, KEY_COMPLETE, 0);
	}
	if (d->complete)
		d->last_reached = d->ep.region;
}

static int read_disk(const struct jsonread_node *t, struct result_disk *d,
		     int version, char *err, size_t errlen)
{
	const struct jsonread_node *region = jsonread_get(t, KEY_REGION);
	size_t i;
	int ret;

	ret = jsonread_get_bytes(t, KEY_IDENTITY, d->identity,
				 sizeof(d->identity), NULL);
	if (ret || !d->identity[0]) {
		snprintf(err, errlen, "a target without an identity");
		return -EBADMSG;
	}
	if (jsonread_get_bytes(t, KEY_PATH, d->path, sizeof(d->path), NULL))
		d->path[0] = 0;
	if (jsonread_get_u64(t, KEY_SIZE, &d->size)) {
		snprintf(err, errlen, "%s: no size", d->identity);
		return -EBADMSG;
	}
	d->ep.mode = result_target_index(jsonread_str(t, KEY_MODE, NULL),
					 mode_namer, ENGINE_NONE + 1);
	d->verdict = jsonread_str(t, KEY_VERDICT, NULL);
	/* It never ran, so it has no region: nothing of it to verify. */
	d->not_started = !strcmp(jsonread_str(t, KEY_STATE, ""),
				 engine_state_name(STATE_NOT_STARTED));
	if (d->not_started && !jsonread_count(region))
		return 0;
	if (!jsonread_count(region) ||
	    jsonread_count(region) > ENGINE_MAX_EXTENTS) {
		snprintf(err, errlen, "%s: no region", d->identity);
		return -EBADMSG;
	}
	for (i = 0; i < jsonread_count(region); i++) {
		const struct jsonread_node *e = jsonread_at(region, i);

		if (jsonread_get_u64(e, KEY_OFFSET, &d->ep.ext[i].offset) ||
		    jsonread_get_u64(e, KEY_LENGTH, &d->ep.ext[i].length) ||
		    d->ep.ext[i].length % UNIT_SIZE ||
		    d->ep.ext[i].offset % 512) {
			snprintf(err, errlen, "%s: a bad region", d->identity);
			return -EBADMSG;
		}
		/* Nothing would be read, and nothing found wrong: no PASS. */
		if (!d->ep.ext[i].length) {
			snprintf(err, errlen, "%s: \"region\" %zu is 0 bytes "
				 "long: nothing there to verify", d->identity,
				 i);
			return -EBADMSG;
		}
		d->ep.region += d->ep.ext[i].length;
	}
	d->ep.next = (int)i;
	if (version >= 2) {
		d->last_written = (uint32_t)jsonread_u64(t,
			KEY_LAST_PASS_WRITTEN, 0);
		d->last_reached = jsonread_u64(t, KEY_LAST_PASS_REACHED, 0);
		d->complete = jsonread_bool(t, KEY_LAST_PASS_COMPLETE, 0);
	} else {
		last_write_v1(t, d);
	}
	if (d->last_reached > d->ep.region)
		d->last_reached = d->ep.region;
	return 0;
}

static int read_record(const struct jsonread_node *root,
		       struct result_record *rec, char *err, size_t errlen)
{
	const struct jsonread_node *targets = jsonread_get(root, KEY_TARGETS);
	const char *id = jsonread_str(root, KEY_RUN_ID, "");
	size_t i;
	char *end;
	int ret;

	rec->schema_version = result_schema(root, err, errlen);
	if (rec->schema_version < 0)
		return rec->schema_version;
	rec->run_id = strtoull(id, &end, 16);
	/* 0 is no run id: a verify would draw a fresh one and FAIL all. */
	if (!*id || *end || strlen(id) > 16 || !rec->run_id) {
		snprintf(err, errlen, "no run id");
		return -EBADMSG;
	}
	rec->bs = jsonread_u64(jsonread_get(root, KEY_SETTINGS), KEY_BS, 0);
	rec->state = record_state_of(jsonread_str(root, KEY_STATE, NULL));
	snprintf(rec->verdict, sizeof(rec->verdict), "%s",
		 jsonread_str(root, KEY_VERDICT, ""));
	rec->disks = calloc(jsonread_count(targets) + 1, sizeof(*rec->disks));
	if (!rec->disks)
		return -ENOMEM;
	for (i = 0; i < jsonread_count(targets); i++) {
		ret = read_disk(jsonread_at(targets, i), &rec->disks[rec->n],
				rec->schema_version, err, errlen);
		if (ret)
			return ret;
		rec->n++;
	}
	return 0;
}

int result_load(const char *dir, struct result_record *rec, char *err,
		size_t errlen)
{
	const struct jsonread_node *root;
	struct jsonread *doc = NULL;
	char path[PATH_MAX], why[300] = "";
	int ret;

	memset(rec, 0, sizeof(*rec));
	snprintf(path, sizeof(path), "%s/result.json", dir);
	/* Too large is not torn: an older checkpoint would tell another run. */
	ret = result_too_large(path, err, errlen);
	if (ret)
		return ret;
	ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
	root = ret ? NULL : jsonread_root(doc);
	/* Cut off before result.json, or torn: the newest good checkpoint. */
	if (ret && ret != -E2BIG &&
	    result_checkpoint_too_large(dir, err, errlen)) {
		jsonread_free(doc);
		return -EFBIG;
	}
	if (ret && ret != -E2BIG &&
	    folder_newest(dir, path, sizeof(path), NULL) == 0) {
		jsonread_free(doc);
		doc = NULL;
		ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
		root = ret ? NULL :
		       jsonread_get(jsonread_root(doc), KEY_RESULT);
		rec->from_checkpoint = 1;
		if (!ret && !root) {
			ret = -EBADMSG;
			snprintf(why, sizeof(why), "no \"result\" in it");
		}
	}
	if (ret) {
		snprintf(err, errlen, "cannot read the run record %s: %s",
			 path, why[0] ? why : strerror(-ret));
		jsonread_free(doc);
		return ret;
	}
	ret = read_record(root, rec, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "cannot read the run record %s: %s", path,
			 why);
		result_record_free(rec);
	} else {
		/* Verdict strings point into the document: keep it. */
		rec->doc = doc;
		doc = NULL;
	}
	jsonread_free(doc);
	return ret;
}

void result_record_free(struct result_record *rec)
{
	free(rec->disks);
	jsonread_free(rec->doc);
	memset(rec, 0, sizeof(*rec));
}

const struct result_disk *result_find(const struct result_record *rec,
				      const char *identity)
{
	int i;

	for (i = 0; i < rec->n; i++)
		if (!strcmp(rec->disks[i].identity, identity))
			return &rec->disks[i];
	return NULL;
}

/*
 * The document is read, its state changed and the whole of it written
 * back: nothing here depends on how a writer spaced or ordered it. Its
 * strings are not marked latin1 even before schema 3, so a byte above
 * 0x7e comes back as the code point an old reader takes for that byte;
 * only a backslash in a string of such an old record comes back as \x5c
 * (this writer's), which its reader then takes as four characters.
 */
int result_set_state(const char *dir, enum record_state state, char *err,
		     size_t errlen)
{
	const struct jsonread_node *root, *m;
	struct jsonread *doc = NULL;
	char path[PATH_MAX], why[300] = "", *text;
	struct json j;
	size_t i, len;
	int ret, set = 0;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	ret = result_too_large(path, err, errlen);
	if (ret)
		return ret;
	ret = jsonread_load(&doc, path, NULL, why, sizeof(why));
	root = ret ? NULL : jsonread_root(doc);
	if (!ret && jsonread_type(root) != JSONREAD_OBJECT) {
		snprintf(why, sizeof(why), "not a JSON object");
		ret = -EBADMSG;
	}
	if (!ret)
		ret = schema_of(root, why, sizeof(why));
	if (ret < 0) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 why[0] ? why : strerror(-ret));
		jsonread_free(doc);
		return ret;
	}
	json_init(&j);
	json_begin(&j, NULL);
	for (i = 0; i < jsonread_count(root); i++) {
		m = jsonread_at(root, i);
		if (!strcmp(jsonread_key(m), KEY_STATE) && !set++)
			json_str(&j, KEY_STATE, record_state_name(state));
		else if (strcmp(jsonread_key(m), KEY_STATE))
			jsonread_write(&j, jsonread_key(m), m);
	}
	if (!set)
		json_str(&j, KEY_STATE, record_state_name(state));
	json_end(&j);
	jsonread_free(doc);
	text = json_take(&j, &len);
	ret = text ? folder_write_in(dir, "result.json", text, len) : -ENOMEM;
	free(text);
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(-ret));
	return ret;
}
