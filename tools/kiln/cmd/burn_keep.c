/* SPDX-License-Identifier: MIT */
/*
 * Description: one results file of a burn written in its run folder and
 * sent to the lab's server; a failure is said and remembered in the
 * record (results_lost), never silent.
 */
#include <errno.h>
#include <string.h>

#include "base/complain.h"
#include "cmd/burn_private.h"
#include "lab/lab.h"

int burn_keep(struct burn *b, const char *name, const void *data, size_t len)
{
	int ret = data ? folder_write(&b->res, name, data, len) : -ENOMEM;

	if (data)
		lab_put(b->lab, name, data, len);
	if (ret) {
		b->r->results_lost = 1;
		complain("cannot write the results: %s/%s: %s", b->res.dir,
			 name, strerror(-ret));
		return -EIO;
	}
	return 0;
}
