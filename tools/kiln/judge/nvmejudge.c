/* SPDX-License-Identifier: MIT */
/*
 * Description: an NVMe drive's logs judged (see nvmejudge.h), as OCP's
 * datacenter checks hold them: spare, the error log, the extended log's
 * counters of wear and of its link.
 */
#include <stdio.h>
#include <string.h>

#include "judge/nvmejudge.h"
#include "judge/record.h"

int nvmejudge_new_errors(const struct nvmelog *before,
			 const struct nvmelog *after)
{
	long long since = before->h.have ? before->h.error_entries : -1;
	int i;

	if (!after->h.have && !after->nerrors)
		return 0;
	if (since < 0 && before->nerrors)
		since = (long long)before->errors[0].count;
	for (i = 0; i < after->nerrors; i++)
		if (since >= 0 && after->errors[i].count <= (uint64_t)since)
			break;
	return i;
}

static void spare(const struct nvmelog_health *b,
		  const struct nvmelog_health *a,
		  const struct smart_counters *smart, struct judge *j)
{
	if (!a->have || a->spare < 0)
		return;
	if (a->spare_threshold > 0 && a->spare < a->spare_threshold) {
		/* smartctl's critical warning bit 0 has said it already. */
		if (smart && smart->have && smart->critical_warning > 0 &&
		    (smart->critical_warning & 1))
			return;
		judge_reason(j, JUDGE_FAIL, "NVMe available spare is %d%%, "
			     "under its threshold of %d%%", a->spare,
			     a->spare_threshold);
	} else if (b->have && b->spare > a->spare) {
		judge_reason(j, JUDGE_WARN, "NVMe available spare fell from "
			     "%d%% to %d%% during the run (its threshold %d%%)",
			     b->spare, a->spare, a->spare_threshold);
	}
}

static void errors(const struct nvmelog *b, const struct nvmelog *a,
		   struct judge *j)
{
	long long grew = 0;
	int n = nvmejudge_new_errors(b, a);
	char st[96];

	if (b->h.have && a->h.have && a->h.error_entries > b->h.error_entries)
		grew = a->h.error_entries - b->h.error_entries;
	else if (n)
		grew = n;
	if (!grew)
		return;
	if (!n) {
		judge_reason(j, JUDGE_WARN, "NVMe error log: %lld new entr%s "
			     "during the run", grew, grew == 1 ? "y" : "ies");
		return;
	}
	judge_reason(j, JUDGE_WARN, "NVMe error log: %lld new entr%s during "
		     "the run, the newest %s at LBA %llu (queue %u, command "
		     "0x%x)", grew, grew == 1 ? "y" : "ies",
		     nvmelog_status_text(a->errors[0].status, st, sizeof(st)),
		     (unsigned long long)a->errors[0].lba, a->errors[0].sqid,
		     a->errors[0].cmdid);
}

static void grown(struct judge *j, const char *what, long long b,
		  long long a, long long limit)
{
	if (b < 0 || a < 0 || a - b < limit)
		return;
	judge_reason(j, JUDGE_WARN, "NVMe extended log (OCP C0h): %s rose "
		     "from %lld to %lld during the run (%lld or more WARNs)",
		     what, b, a, limit);
}

static void ocp(const struct nvmelog_ocp *b, const struct nvmelog_ocp *a,
		struct judge *j)
{
	if (!b->have || !a->have)
		return;
	grown(j, "bad NAND blocks", b->bad_user_nand + b->bad_system_nand,
	      a->bad_user_nand + a->bad_system_nand, NVMEJUDGE_BAD_NAND);
	grown(j, "end-to-end detected errors", b->e2e_detected,
	      a->e2e_detected, NVMEJUDGE_E2E);
	grown(j, "PCIe correctable errors", b->pcie_correctable,
	      a->pcie_correctable, NVMEJUDGE_PCIE_COR);
}

/* The health log as smartctl's counters, for judge_health(). */
static void as_smart(const struct nvmelog_health *h, struct smart_counters *c)
{
	smart_counters_none(c);
	if (!h->have)
		return;
	c->have = 1;
	c->media_errors = h->media_errors;
	c->critical_warning = h->critical_warning;
	c->error_log = h->error_entries;
}

void nvmejudge_disk(const struct nvmelog *before, const struct nvmelog *after,
		    const struct smart_counters *smart_after, struct judge *j)
{
	struct smart_counters b, a;

	if (!after->asked)
		return;
	if (!smart_after || !smart_after->have) {
		as_smart(&before->h, &b);
		as_smart(&after->h, &a);
		judge_health(&b, &a, j);
	}
	spare(&before->h, &after->h, smart_after, j);
	errors(before, after, j);
	ocp(&before->ocp, &after->ocp, j);
}

struct nvme_disk *nvme_disk_make(struct record_disk *d)
{
	struct nvme_disk *nv = record_disk_slot(d, NVME_SLOT);

	if (nv)
		return nv;
	nv = record_disk_slot_make(d, NVME_SLOT, sizeof(*nv), NULL);
	if (nv) {
		nvmelog_init(&nv->before);
		nvmelog_init(&nv->after);
	}
	return nv;
}

const struct nvme_disk *nvme_disk_of(const struct record_disk *d)
{
	static const struct nvme_disk none;
	const struct nvme_disk *nv = record_disk_slot(d, NVME_SLOT);

	return nv ? nv : &none;
}
