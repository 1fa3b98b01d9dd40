/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln run's settings from the lab server. With lab=URL
 * (on the PXE menu's command line, or the stick's kiln.cfg) the run
 * fetches URL/config/<machine id>.cfg, else URL/config/default.cfg, and
 * reads it after kiln.cfg and before the kernel command line, so forty
 * machines a day are set from one place and the PXE menu still wins.
 * The expected machine comes the same way: URL/config/<id>.expect, else
 * default.expect.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/http.h"
#include "base/http_url.h"
#include "base/kiln.h"
#include "cmd/labcfg.h"
#include "lab/lab.h"

/* A settings file is a page of KEY=VALUE lines, not a download. */
#define LABCFG_MAX (256 * 1024)
#define LABCFG_TIMEOUT_MS 10000

/* One GET of base's path + name: 0, 1 when not there (404), -errno. */
static int get(const struct http_url *base, const char *name, char *body,
	       char *url, size_t ulen, char *why, size_t wlen)
{
	struct http_request rq = { .method = "GET",
				   .timeout_ms = LABCFG_TIMEOUT_MS,
				   .keep = body, .keep_max = LABCFG_MAX };
	struct http_result res;
	char path[HTTP_URL_PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s", base->path);
	if (http_url_add_slash(path, sizeof(path)) ||
	    http_url_append_segment(path, sizeof(path), "config") ||
	    http_url_add_slash(path, sizeof(path)) ||
	    http_url_append_segment(path, sizeof(path), name))
		return -ENAMETOOLONG;
	rq.path = path;
	http_url_format(base, path, url, ulen);
	ret = http_request(base, &rq, &res);
	if (ret == -EREMOTEIO && res.status == 404)
		return 1;
	if (ret)
		snprintf(why, wlen, "%s", res.error[0] ? res.error :
			 strerror(-ret));
	return ret;
}

int labcfg_fetch(const struct settings *s, const char *ext, char **text,
		 size_t *len, char *url, size_t ulen, char *why, size_t wlen)
{
	struct http_url base;
	char id[128], name[160], *body;
	int ret;

	*text = NULL;
	*len = 0;
	why[0] = url[0] = 0;
	if (settings_url(s, s->lab, &base, why, wlen))
		return -EINVAL;
	if (s->machine_id)
		snprintf(id, sizeof(id), "%s", s->machine_id);
	else
		lab_machine_id(id, sizeof(id));
	body = malloc(LABCFG_MAX + 1);
	if (!body)
		return -ENOMEM;
	/* This machine's own, else the lab's default for every machine. */
	snprintf(name, sizeof(name), "%s%s", id, ext);
	ret = get(&base, name, body, url, ulen, why, wlen);
	if (ret == 1) {
		snprintf(name, sizeof(name), "default%s", ext);
		ret = get(&base, name, body, url, ulen, why, wlen);
	}
	if (ret) {
		free(body);
		return ret;
	}
	*text = body;
	*len = strlen(body);
	return 0;
}
