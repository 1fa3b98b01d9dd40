/* SPDX-License-Identifier: MIT */
/*
 * Description: a drive's own link error counters in smartctl's JSON (see
 * smartjson.h). Keys are smartctl's: ataprint.cpp's
 * PrintSataPhyEventCounters() writes sata_phy_event_counters.table[]
 * {id, name, size, value, overflow}; scsiprint.cpp's show_sas_port_param()
 * writes scsi_sas_port_N.phy_K with its counters' names in json::str2key()
 * form ("Invalid DWORD count" is invalid_dword_count). Both since 7.3.
 */
#include <stdio.h>
#include <string.h>

#include "base/jsonread.h"
#include "sense/smartjson.h"

typedef const struct jsonread_node node;

/* The SATA phy events of the SATA 3.x specification, by id. */
static const struct { unsigned id; const char *name; } sata_ids[] = {
	{ 0x001, "icrc_errors" },
	{ 0x002, "r_err_data_fis" },
	{ 0x003, "r_err_d2h_data_fis" },
	{ 0x004, "r_err_h2d_data_fis" },
	{ 0x005, "r_err_non_data_fis" },
	{ 0x006, "r_err_d2h_non_data_fis" },
	{ 0x007, "r_err_h2d_non_data_fis" },
	{ 0x008, "d2h_non_data_fis_retries" },
	{ 0x009, "phy_rdy_to_phy_nrdy" },
	{ 0x00a, "comresets" },
	{ 0x00b, "h2d_crc_errors" },
	{ 0x00d, "h2d_non_crc_errors" },
	{ 0x00f, "r_err_h2d_data_fis_crc" },
	{ 0x010, "r_err_h2d_data_fis_non_crc" },
	{ 0x012, "r_err_h2d_non_data_fis_crc" },
	{ 0x013, "r_err_h2d_non_data_fis_non_crc" },
};

/* smartctl's key for each of the four SAS phy counters, and kiln's. */
static const struct { const char *key, *name; } sas_keys[] = {
	{ "invalid_dword_count", "invalid_dword_count" },
	{ "running_disparity_error_count", "running_disparity_error_count" },
	{ "loss_of_dword_synchronization_count", "loss_of_dword_sync_count" },
	{ "phy_reset_problem_count", "phy_reset_problem_count" },
};

static void add(struct smartjson *s, const char *src, const char *name,
		node *n, const char *key)
{
	struct smartjson_link *l;
	int64_t v;

	if (s->nlinks >= SMARTJSON_LINKS || jsonread_get_i64(n, key, &v) ||
	    v < 0)
		return;
	l = &s->links[s->nlinks++];
	snprintf(l->src, sizeof(l->src), "%s", src);
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->value = (long long)v;
}

static void sata_events(node *root, struct smartjson *s)
{
	node *t = jsonread_path(root, "/sata_phy_event_counters/table");
	size_t i, k;

	for (i = 0; i < jsonread_count(t); i++) {
		node *e = jsonread_at(t, i);
		uint64_t id = jsonread_u64(e, "id", 0);

		/* At its ceiling a counter stops: its growth is unknown. */
		if (jsonread_bool(e, "overflow", 0))
			continue;
		for (k = 0; k < sizeof(sata_ids) / sizeof(sata_ids[0]); k++)
			if (sata_ids[k].id == id)
				add(s, "drive", sata_ids[k].name, e, "value");
	}
}

/* A dual-ported SAS drive has two ports, a wide one more phys each. */
#define PORTS 4
#define PHYS 8

static void sas_ports(node *root, struct smartjson *s)
{
	char key[32], src[24];
	int p, k;
	size_t c;

	for (p = 0; p < PORTS; p++) {
		node *port;

		snprintf(key, sizeof(key), "scsi_sas_port_%d", p);
		port = jsonread_get(root, key);
		for (k = 0; port && k < PHYS; k++) {
			node *phy;

			snprintf(key, sizeof(key), "phy_%d", k);
			phy = jsonread_get(port, key);
			if (!phy)
				continue;
			snprintf(src, sizeof(src), "drive port%d phy%d", p, k);
			for (c = 0; c < sizeof(sas_keys) / sizeof(sas_keys[0]);
			     c++)
				add(s, src, sas_keys[c].name, phy,
				    sas_keys[c].key);
		}
	}
}

void smartjson_links(node *root, struct smartjson *s)
{
	s->nlinks = 0;
	sata_events(root, s);
	sas_ports(root, s);
}
