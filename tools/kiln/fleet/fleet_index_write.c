/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's index.json made from its result.json (what
 * kiln fleet reads of it, as fleet_read.c reads it), and made again
 * for a folder; fleet_index.c reads it back. Above the reader, so the
 * reader never calls back into it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "base/timing.h"
#include "fleet/fleet.h"
#include "judge/record.h"
#include "results/folder.h"
#include "results/result.h"
#include "results/result_keys.h"
#include "fleet/fleet_index.h"

/* A nullable string: written only when the run said it. */
static void opt_str(struct json *j, const char *key, const char *v)
{
	if (v)
		json_str(j, key, v);
}

static void write_disk(struct json *j, const struct fleet_disk *d)
{
	json_begin(j, NULL);
	json_str(j, KEY_LABEL, d->label);
	json_str(j, KEY_MODEL, d->model);
	json_str(j, KEY_SERIAL, d->serial);
	json_str(j, KEY_WWN, d->wwn);
	json_str(j, KEY_IDENTITY, d->identity);
	json_u64(j, KEY_SIZE, d->size);
	json_bool(j, KEY_FILE, d->file);
	json_u64(j, IKEY_PASSES_MADE, d->passes);
	json_u64(j, KEY_BYTES_WRITTEN, d->written);
	json_u64(j, KEY_BYTES_READ, d->read);
	json_str(j, KEY_VERDICT, d->verdict);
	opt_str(j, KEY_REASONS, d->reasons);
	json_num(j, IKEY_WRITE_MBPS, d->write_mbps);
	json_num(j, IKEY_READ_MBPS, d->read_mbps);
	json_end(j);
}

static char *index_text(const struct fleet_run *r, size_t result_bytes,
			size_t *len)
{
	const struct signal_column *cols[FLEET_COLUMNS];
	int ncols = signals_columns(cols, FLEET_COLUMNS), k;
	struct json j;
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, KEY_SCHEMA, INDEX_SCHEMA);
	json_u64(&j, KEY_SCHEMA_VERSION, INDEX_VERSION);
	json_u64(&j, IKEY_RESULT_BYTES, result_bytes);
	opt_str(&j, KEY_MACHINE_ID, r->machine);
	json_str(&j, KEY_VENDOR, r->vendor);
	json_str(&j, KEY_PRODUCT, r->product);
	json_str(&j, KEY_MAC, r->mac);
	json_str(&j, KEY_ADDRESS, r->address);
	json_str(&j, KEY_ASSET_TAG, r->asset_tag);
	json_str(&j, KEY_CHASSIS_SERIAL, r->chassis_serial);
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		json_str(&j, cols[k]->name, r->cols[k]);
	json_str(&j, KEY_STATE, record_state_name(r->state));
	json_str(&j, KEY_VERDICT, r->verdict);
	json_str(&j, KEY_STARTED, r->started);
	json_bool(&j, KEY_CLOCK_TRUSTED, r->clock_trusted);
	json_num(&j, KEY_ELAPSED_SECONDS, r->elapsed);
	json_str(&j, KEY_KILN_VERSION, r->kiln_version);
	json_str(&j, KEY_RUN_ID, r->run_id);
	opt_str(&j, KEY_FAILURE, r->failure);
	opt_str(&j, KEY_PENDING_OF, r->pending_of);
	json_bool(&j, KEY_RESULTS_COMPLETE, !r->results_lost);
	json_array(&j, IKEY_DISKS);
	for (i = 0; i < r->n; i++)
		write_disk(&j, &r->disks[i]);
	json_array_end(&j);
	json_end(&j);
	return json_take(&j, len);
}

char *fleet_index_json(const char *doc, size_t len, size_t *out, char *why,
		       size_t whylen)
{
	struct jsonread *parsed = NULL;
	struct fleet_run r;
	char *text = NULL;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = jsonread_parse(&parsed, doc, len, NULL, why, whylen);
	if (!ret)
		ret = fleet_read_doc(jsonread_root(parsed), &r, why, whylen);
	/* A run still going is read from its checkpoints: no index. */
	if (!ret && r.state == FLEET_RUNNING) {
		snprintf(why, whylen, "the run is still running");
		ret = -EBADMSG;
	}
	/*
	 * How its disks were left (end=, the certificates) is not in the
	 * index: such a run is read from result.json.
	 */
	if (!ret && r.end_method && strcmp(r.end_method, "keep")) {
		snprintf(why, whylen, "its end step is read from result.json");
		ret = -EBADMSG;
	}
	if (!ret)
		text = index_text(&r, len, out);
	if (!ret && !text)
		snprintf(why, whylen, "%s", strerror(ENOMEM));
	fleet_read_free(&r);
	jsonread_free(parsed);
	return text;
}

int fleet_index_redo(const char *dir, char *why, size_t whylen)
{
	char path[PATH_MAX], *doc = NULL, *text;
	size_t len = 0, tlen;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	ret = result_too_large(path, why, whylen);
	if (ret)
		return ret;
	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		snprintf(why, whylen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* result_too_large held it to a size read whole. */
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);

		doc = n >= 0 ? malloc((size_t)n + 1) : NULL;
		rewind(f);
		if (doc)
			len = fread(doc, 1, (size_t)n, f);
	}
	fclose(f);
	if (!doc) {
		snprintf(why, whylen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	text = fleet_index_json(doc, len, &tlen, why, whylen);
	free(doc);
	if (!text)
		return -EBADMSG;
	ret = folder_write_in(dir, FLEET_INDEX, text, tlen);
	free(text);
	if (ret)
		snprintf(why, whylen, "%s/%s: %s", dir, FLEET_INDEX,
			 strerror(-ret));
	return ret;
}
