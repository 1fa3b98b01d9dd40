/* SPDX-License-Identifier: MIT */
/*
 * Description: EDAC's DIMMs named by their SMBIOS slots. Labels as the
 * drivers write them (ghes_edac's "BANK DEVICE", skx_edac's
 * "CPU_SrcID#0_MC#0_Chan#0_DIMM#0" that names no slot, a lab's silk
 * screen names set with edac-ctl) against slots of one and two sockets;
 * a label that matches two slots alike names none. On the hand-made
 * server's EDAC (tests/fixtures/sensors/server) with a DMI table made here
 * as the SMBIOS specification lays type 17 out, and on QEMU's captured
 * table (its locator "DIMM 0"): the slot in the machine's facts, in the
 * reason an uncorrected error gives, in result.json and back; the run's
 * memory errors counted once (a controller's sums are its DIMMs').
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "discover/smbios.h"
#include "judge/record.h"
#include "judge/vitals.h"
#include "results/vitals_out.h"
#include "sense/edacslot.h"

static char tmp[] = "/tmp/kiln-edacslot-XXXXXX";

static struct smbios_dimm slot(const char *bank, const char *locator)
{
	struct smbios_dimm d;

	memset(&d, 0, sizeof(d));
	snprintf(d.bank, sizeof(d.bank), "%s", bank);
	snprintf(d.locator, sizeof(d.locator), "%s", locator);
	d.size = 16ull << 30;
	return d;
}

static const char *of(const char *label, const struct smbios_dimm *d, int n)
{
	const struct smbios_dimm *m = edacslot_of(label, d, n);
	static char out[140];

	snprintf(out, sizeof(out), "%s%s%s", m ? m->bank : "",
		 m && m->bank[0] ? "/" : "", m ? m->locator : "-");
	return out;
}

static void labels(void)
{
	struct smbios_dimm one[4], two[4];

	one[0] = slot("P0_Node0_Channel0_Dimm0", "DIMM_A1");
	one[1] = slot("P0_Node0_Channel1_Dimm0", "DIMM_B1");
	one[2] = slot("P0_Node0_Channel0_Dimm1", "DIMM_A10");
	one[3] = slot("", "A1");
	tap_ok(!strcmp(of("DIMM_A1", one, 4),
		       "P0_Node0_Channel0_Dimm0/DIMM_A1") &&
	       !strcmp(of("dimm_b1", one, 4),
		       "P0_Node0_Channel1_Dimm0/DIMM_B1") &&
	       !strcmp(of("DIMM_A10", one, 4),
		       "P0_Node0_Channel0_Dimm1/DIMM_A10"),
	       "a label that is a locator names its slot (any case), DIMM_A10 "
	       "not DIMM_A1");
	tap_ok(!strcmp(of("P0_Node0_Channel1_Dimm0 DIMM_B1", one, 4),
		       "P0_Node0_Channel1_Dimm0/DIMM_B1"),
	       "ghes_edac's \"BANK DEVICE\"");
	tap_ok(!strcmp(of("CPU0 DIMM_B1 (silk)", one, 4),
		       "P0_Node0_Channel1_Dimm0/DIMM_B1") &&
	       !strcmp(of("CPU_SrcID#0_MC#0_Chan#0_DIMM#0", one, 4), "-") &&
	       !strcmp(of("mc#0csrow#0channel#0", one, 4), "-") &&
	       !strcmp(of("", one, 4), "-") && !strcmp(of(NULL, one, 4), "-"),
	       "a locator as a word of the label; skx_edac's and the EDAC "
	       "core's default labels, and none, name no slot");
	tap_ok(!strcmp(of("DIMM_A1 A1", one, 4), "-"),
	       "a label with two slots' names names neither");
	two[0] = slot("CPU0", "DIMM_A1");
	two[1] = slot("CPU1", "DIMM_A1");
	two[2] = slot("CPU0", "DIMM_B1");
	two[3] = slot("CPU1", "DIMM_B1");
	tap_ok(!strcmp(of("DIMM_A1", two, 4), "-") &&
	       !strcmp(of("CPU1_DIMM_A1", two, 4), "CPU1/DIMM_A1") &&
	       !strcmp(of("CPU0 DIMM_B1", two, 4), "CPU0/DIMM_B1"),
	       "two sockets with slots of one name: the bank tells them "
	       "apart, or no slot is named");
	tap_ok(!strcmp(of("DIMM_A1", two, 0), "-"),
	       "no SMBIOS: no slot");
}

/* A DMI table of type 17 structures, as smbios.c reads it. */
static size_t dmi(unsigned char *t, const char *const (*dimms)[2], int n)
{
	size_t len = 0;
	int i;

	for (i = 0; i < n; i++) {
		unsigned char *p = t + len;

		memset(p, 0, 0x28);
		p[0] = 17;
		p[1] = 0x28;
		p[2] = (unsigned char)i;
		p[0x0c] = 0x00;		/* 16384 MB */
		p[0x0d] = 0x40;
		p[0x10] = 1;		/* device locator */
		p[0x11] = 2;		/* bank locator */
		len += 0x28;
		len += (size_t)sprintf((char *)t + len, "%s", dimms[i][0]) + 1;
		len += (size_t)sprintf((char *)t + len, "%s", dimms[i][1]) + 1;
		t[len++] = 0;
	}
	t[len] = 127;
	t[len + 1] = 4;
	return len + 6;
}

static void edac_of(const struct vitals_machine *m, const char *where,
		    const struct vitals_edac **e)
{
	int i;

	*e = NULL;
	for (i = 0; i < m->nedac; i++)
		if (!strcmp(m->edac[i].where, where))
			*e = &m->edac[i];
}

static void sample(struct vitals_sample *v, const char *root,
		   const struct smbios_dimm *d, int n)
{
	memset(v, 0, sizeof(*v));
	v->have_sensors = sensors_read(root, &v->sensors) == 0;
	edacslot_match(&v->sensors, d, n);
}

static void server(void)
{
	static const char *const dimms[][2] = {
		{ "DIMM_A1", "BANK 0" }, { "DIMM_B1", "BANK 1" },
	};
	unsigned char t[512];
	char root[PATH_MAX], dir[PATH_MAX];
	struct smbios_dimm d[8];
	const struct vitals_edac *e, *mc;
	struct vitals_sample v0, v1;
	struct settings s, s2;
	struct record r, back;
	struct jsonread *doc;
	struct json j;
	size_t len;
	int n;
	char *js;

	snprintf(root, sizeof(root), "%s/server/sys", tmp);
	snprintf(dir, sizeof(dir), "%s/firmware/dmi/tables", root);
	tap_sh("mkdir -p %s", dir);
	len = dmi(t, dimms, 2);
	if (tap_write(dir, "DMI", t, len))
		tap_bail("cannot write the DMI table");
	n = smbios_dimms_read(root, d, 8);
	tap_ok(n == 2 && !strcmp(d[1].locator, "DIMM_B1") &&
	       !strcmp(d[1].bank, "BANK 1"),
	       "the table made: two slots, with their bank locators");
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
	sample(&v0, root, d, n);
	tap_put("1\n", "%s/devices/system/edac/mc/mc1/csrow0/ue_count", root);
	tap_put("1\n", "%s/devices/system/edac/mc/mc1/ue_count", root);
	tap_put("7\n", "%s/devices/system/edac/mc/mc0/dimm1/dimm_ce_count",
		root);
	tap_put("12\n", "%s/devices/system/edac/mc/mc0/ce_count", root);
	sample(&v1, root, d, n);
	vitals_fold(&r, &v0);
	vitals_fold(&r, &v1);
	sensors_free(&v0.sensors);
	sensors_free(&v1.sensors);
	vitals_judge_machine(&r);
	edac_of(&r.sig, "mc1/csrow0", &e);
	edac_of(&r.sig, "mc0/dimm0", &mc);
	tap_ok(e && !strcmp(e->slot, "DIMM_A1") && mc && !mc->slot[0],
	       "csrow0's label DIMM_A1 is its slot; skx_edac's label names "
	       "none");
	edac_of(&r.sig, "mc1", &mc);
	tap_ok(mc && !mc->slot[0], "a controller has no slot");
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.sig.j, "uncorrected memory errors at "
			      "mc1/csrow0 (slot DIMM_A1) rose from 0 to 1") &&
	       tap_has_reason(&r.sig.j, "corrected memory errors at mc0/dimm1 "
			      "(CPU_SrcID#0_MC#0_Chan#1_DIMM#0) rose from 0 "
			      "to 7"),
	       "an uncorrected error FAILs the machine naming the slot; a "
	       "corrected rise WARNs by its label");
	tap_ok(vitals_memory_errors(&r.sig) == 8,
	       "the run's memory errors: 7 corrected and 1 uncorrected, the "
	       "controllers' sums not again (%d)",
	       vitals_memory_errors(&r.sig));

	json_init(&j);
	json_begin(&j, NULL);
	vitals_out_machine(&j, &r);
	json_end(&j);
	js = json_take(&j, &len);
	if (!js || jsonread_parse(&doc, js, len, NULL, NULL, 0))
		tap_bail("machine JSON does not parse");
	settings_defaults(&s2, SCOPE_BURN);
	record_init(&back, "burn", 0, NULL, &s2);
	snprintf(back.failure, sizeof(back.failure), "%s", r.failure);
	vitals_out_read_machine(jsonread_root(doc), &back);
	vitals_judge_machine(&back);
	edac_of(&back.sig, "mc1/csrow0", &e);
	tap_ok(strstr(js, "\"slot\": \"DIMM_A1\"") && e &&
	       !strcmp(e->slot, "DIMM_A1") &&
	       !memcmp(&back.sig.j, &r.sig.j, sizeof(r.sig.j)) &&
	       !strcmp(back.failure, r.failure) &&
	       vitals_memory_errors(&back.sig) == 8,
	       "result.json's edac counts have the slot; read back, judged "
	       "the same");
	free(js);
	jsonread_free(doc);
	record_free(&back);
	record_free(&r);
}

static void qemu(void)
{
	char root[PATH_MAX];
	struct smbios_dimm d[8];
	int n;

	snprintf(root, sizeof(root), "%s/q35/sys", tmp);
	n = smbios_dimms_read(root, d, 8);
	tap_ok(n == 1 && !strcmp(d[0].locator, "DIMM 0") &&
	       !strcmp(of("DIMM 0", d, n), "DIMM 0") &&
	       !strcmp(of("DIMM 01", d, n), "-"),
	       "QEMU's table: one slot, DIMM 0, which a label DIMM 0 names "
	       "(%d: %s/%s)", n, n ? d[0].bank : "", n ? d[0].locator : "");
}

int main(int argc, char **argv)
{
	char cwd[PATH_MAX];

	tap_args(argc, argv);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp: %s", strerror(errno));
	if (!getcwd(cwd, sizeof(cwd)))
		tap_bail("getcwd");
	tap_sh("cp -r %s/tests/fixtures/sensors/server %s/server", cwd, tmp);
	tap_sh("mkdir -p %s/q35 && tar -xzf %s/tests/fixtures/sensors/"
	       "qemu-cpu.tar.gz -C %s/q35", tmp, cwd, tmp);
	TAP_RUN(labels);
	TAP_RUN(server);
	TAP_RUN(qemu);
	tap_sh("rm -rf %s", tmp);
	return tap_done();
}
