/* SPDX-License-Identifier: MIT */
/*
 * Description: the inventory told two ways, for kiln discover and the
 * run folder: a tree a person reads at a glance on an 80-column serial
 * console (controller, then its disks), and a versioned JSON document
 * (inventory.json).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "discover/inventory.h"
#include "settings/settings.h"

/*
 * Powers of 1024, as the plan, the summary, dd and fio say sizes: the
 * same disk is one size everywhere kiln names it.
 */
static void size_text(uint64_t bytes, char *buf, size_t len)
{
	settings_fmt_size(bytes, buf, len);
}

/* Words of text after a lead, wrapped at 79 columns with a hanging indent. */
static void wrapped(FILE *f, const char *lead, const char *text)
{
	const int indent = 12, width = 79;
	int col = indent + (int)strlen(lead), first = 1;
	const char *p = text + strspn(text, " ");

	fprintf(f, "%*s%s", indent, "", lead);
	while (*p) {
		int n = (int)strcspn(p, " ");

		if (!first && col + 1 + n > width) {
			fprintf(f, "\n%*s", indent + 2, "");
			col = indent + 2;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", n, p);
		col += n;
		first = 0;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

static void print_disk(const struct discover_disk *d, FILE *f)
{
	char size[32], extra[200] = "";
	const char *rot = d->id.rotational == 1 ? "HDD" :
			  d->id.rotational == 0 ? "SSD" : "";

	size_text(d->size, size, sizeof(size));
	fprintf(f, "  %-9.9s %9s  %-20.20s %-11.11s %-9.9s %s\n", d->id.name,
		size, d->id.model[0] ? d->id.model : "-", d->transport,
		d->link[0] ? d->link : "", safety_class_name(d->safety.class));
	if (d->id.serial[0])
		snprintf(extra, sizeof(extra), "serial %.40s  ", d->id.serial);
	snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
		 "%u/%u %s", d->lbs, d->pbs, rot);
	if (d->firmware[0])
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "  fw %.16s", d->firmware);
	if (d->raid_volume)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "  RAID volume");
	if (d->removable)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "  removable");
	fprintf(f, "  %-9s %s\n", "", extra);
	if (d->has_slot) {
		char bay[160];

		enclosure_text(&d->slot, bay, sizeof(bay));
		fprintf(f, "  %-9s %.67s\n", "", bay);
	}
	fprintf(f, "  %-9s %.67s\n", "", d->id.identity);
	if (d->unusable[0])
		wrapped(f, "UNUSABLE: ", d->unusable);
	/* Said only where there is something to say: found, or unasked. */
	if (d->hidden.state != HIDDEN_NONE && d->hidden.said[0])
		wrapped(f, "capacity: ", d->hidden.said);
	if (d->hidden.state == HIDDEN_FOUND && d->hidden.todo[0])
		wrapped(f, "to reach it: ", d->hidden.todo);
	/* A sanitize running or failed, or that the drive cannot say. */
	if (sanstatus_blocks(&d->san))
		wrapped(f, "SANITIZING: ", d->san.why);
	else if (d->san.state == SANSTATUS_NO_LOG ||
		 d->san.state == SANSTATUS_NO_STATUS)
		fprintf(f, "  %-9s %s\n", "", sanstatus_name(d->san.state));
	if (d->safety.class != SAFETY_BLANK) {
		char lead[32];

		snprintf(lead, sizeof(lead), "%s: ",
			 safety_class_name(d->safety.class));
		wrapped(f, lead, d->safety.why);
	}
}

/* "8.0 GT/s PCIe" -> 8, "2.5 GT/s PCIe" -> 2.5 */
static double gts(const char *speed)
{
	return atof(speed);
}

static void print_controller(const struct pci_controller *c, FILE *f)
{
	char link[96] = "link unknown", numa[16] = "-";

	fprintf(f, "%s  %s [%04x:%04x] %.40s\n", c->pci, c->kind, c->vendor,
		c->device, c->device_name[0] ? c->device_name : c->vendor_name);
	if (c->link_width > 0)
		snprintf(link, sizeof(link), "PCIe %g GT/s x%d (max %g GT/s "
			 "x%d)%s, %.0f MB/s", gts(c->link_speed), c->link_width,
			 gts(c->max_link_speed), c->max_link_width,
			 c->degraded ? " BELOW MAX" : "", c->link_mbps);
	if (c->numa >= 0)
		snprintf(numa, sizeof(numa), "%d", c->numa);
	fprintf(f, "  %s, NUMA %s, %s\n", c->driver[0] ? c->driver :
		"no driver", numa, link);
	if (c->vmd[0])
		fprintf(f, "  behind Intel VMD %s\n", c->vmd);
	if (!c->ndisks)
		fprintf(f, "  no disks\n");
}

/* The next line of the system's block: "system" first, then indented. */
static void system_line(FILE *f, int *n, const char *a, const char *b)
{
	if (!a[0] && !b[0])
		return;
	fprintf(f, "%-9s%s%s%s\n", (*n)++ ? "" : "system", a,
		a[0] && b[0] ? " " : "", b);
}

/* What DMI and /proc say of the machine, leaving out what they do not. */
static void system_lines(const struct machine_system *s, const char *mem,
			 FILE *f)
{
	char a[160], b[80];
	int n = 0;

	snprintf(a, sizeof(a), "%.30s", s->vendor);
	snprintf(b, sizeof(b), "%.40s", s->product);
	system_line(f, &n, a, b);
	snprintf(a, sizeof(a), "%s%.30s", s->serial[0] ? "serial " : "",
		 s->serial);
	snprintf(b, sizeof(b), "%s%.30s", s->board[0] ?
		 (s->serial[0] ? ", board " : "board ") : "", s->board);
	system_line(f, &n, a, b);
	snprintf(a, sizeof(a), "%s%.30s", s->bios_version[0] ||
		 s->bios_date[0] ? "BIOS" : "", s->bios_version);
	snprintf(b, sizeof(b), "%.20s", s->bios_date);
	system_line(f, &n, a, b);
	/* "2 x CPU" reads as two sockets: say threads and sockets apart. */
	snprintf(a, sizeof(a), "%.50s%s%d CPU%s", s->cpu, s->cpu[0] ? ", " :
		 "", s->cpus, s->cpus == 1 ? "" : "s");
	if (s->sockets > 0)
		snprintf(a + strlen(a), sizeof(a) - strlen(a),
			 " in %d socket%s", s->sockets,
			 s->sockets == 1 ? "" : "s");
	snprintf(a + strlen(a), sizeof(a) - strlen(a), ", memory %s", mem);
	system_line(f, &n, a, "");
	snprintf(a, sizeof(a), "%s%.40s%s%.40s", s->asset_tag[0] ?
		 "asset tag " : "", s->asset_tag, s->chassis_serial[0] ?
		 (s->asset_tag[0] ? ", chassis " : "chassis ") : "",
		 s->chassis_serial);
	system_line(f, &n, a, "");
	snprintf(a, sizeof(a), "%s%s", s->machine_id[0] ? "machine id " : "",
		 s->machine_id);
	system_line(f, &n, a, "");
}

/*
 * The DIMMs the BIOS saw, like ones said once ("dimms    8 x 32 GiB 3200
 * MT/s M393A4K40DB3-CWE"), so 32 slots take a line or two, not 32.
 */
static void dimm_lines(const struct discover_inventory *inv, FILE *f)
{
	int kept = inv->ndimms < DISCOVER_MAX_DIMMS ? inv->ndimms :
		   DISCOVER_MAX_DIMMS;
	int i = 0, n = 0;

	while (i < kept) {
		const struct smbios_dimm *d = &inv->dimms[i];
		char size[32], speed[24] = "";
		int k = i + 1;

		while (k < kept && inv->dimms[k].size == d->size &&
		       inv->dimms[k].speed == d->speed &&
		       !strcmp(inv->dimms[k].part, d->part))
			k++;
		settings_fmt_size(d->size, size, sizeof(size));
		if (d->speed)
			snprintf(speed, sizeof(speed), " %u MT/s", d->speed);
		fprintf(f, "%-9s%d x %s%s%s%.40s\n", n++ ? "" : "dimms",
			k - i, size, speed, d->part[0] ? " " : "", d->part);
		i = k;
	}
	if (inv->ndimms > kept)
		fprintf(f, "%-9s%d more not kept\n", "", inv->ndimms - kept);
}

void inventory_print(const struct discover_inventory *inv, FILE *f)
{
	const struct machine_system *s = &inv->sys;
	char mem[32];
	int i, k, loose = 0;

	settings_fmt_size(s->memory, mem, sizeof(mem));
	fprintf(f, "kiln discover: %d disk%s, %d controller%s\n", inv->ndisks,
		inv->ndisks == 1 ? "" : "s", inv->nctrls,
		inv->nctrls == 1 ? "" : "s");
	system_lines(s, mem, f);
	dimm_lines(inv, f);
	for (i = 0; i < inv->nnics; i++) {
		const struct machine_nic *n = &inv->nics[i];
		char speed[24] = "speed ?";

		if (n->speed > 0)
			snprintf(speed, sizeof(speed), "%d Mb/s", n->speed);
		fprintf(f, "nic      %-10.10s %s %.12s %s %s%s\n", n->name,
			n->mac, n->driver, speed, n->state,
			n->wireless ? " wireless" : "");
	}
	for (i = 0; i < inv->nctrls; i++) {
		const struct pci_controller *c = &inv->ctrls[i];

		fputc('\n', f);
		print_controller(c, f);
		for (k = 0; k < inv->ndisks; k++)
			if (inv->disks[k].controller == i)
				print_disk(&inv->disks[k], f);
	}
	for (k = 0; k < inv->ndisks; k++) {
		if (inv->disks[k].controller >= 0)
			continue;
		if (!loose++)
			fprintf(f, "\nno PCI controller found\n");
		print_disk(&inv->disks[k], f);
	}
}

/* The SAS phys on a disk's path, by name: their counters are the run's. */
static void json_disk_phys(struct json *j, const struct discover_disk *d,
			   const struct discover_inventory *inv)
{
	static const char devices[] = "/devices/";
	/* Under the root, or whole when the root was not its real path. */
	const char *path = strstr(d->devpath, devices);
	int i;

	path = path ? path + sizeof(devices) - 1 : "";
	json_array(j, "sas_phys");
	for (i = 0; i < inv->phys.n; i++)
		if (sasphy_on_path(&inv->phys.phys[i], path))
			json_str(j, NULL, inv->phys.phys[i].name);
	json_array_end(j);
}

/* Each SAS phy with its error counters at discovery. */
static void json_phys(struct json *j, const struct discover_inventory *inv)
{
	int i, k;

	json_array(j, "sas_phys");
	for (i = 0; i < inv->phys.n; i++) {
		const struct sasphy *p = &inv->phys.phys[i];

		json_begin(j, NULL);
		json_str(j, "phy", p->name);
		json_str(j, "owner", p->owner);
		json_str(j, "controller", p->ctrl[0] ? p->ctrl : NULL);
		json_bool(j, "in_use", sasphy_in_use(p));
		json_bool(j, "to_expander", p->to_expander);
		json_str(j, "negotiated_linkrate", p->rate);
		json_begin(j, "counters");
		for (k = 0; k < SASPHY_COUNTERS; k++)
			if (p->err[k])
				json_str(j, sasphy_counter[k],
					 strerror(p->err[k]));
			else
				json_i64(j, sasphy_counter[k], p->count[k]);
		json_end(j);
		json_end(j);
	}
	json_array_end(j);
}

static void json_disk(struct json *j, const struct discover_disk *d,
		      const struct discover_inventory *inv)
{
	json_begin(j, NULL);
	identity_json(j, &d->id);
	json_str(j, "vendor", d->vendor);
	json_str(j, "firmware", d->firmware);
	json_u64(j, "size", d->size);
	json_u64(j, "logical_block_size", d->lbs);
	json_u64(j, "physical_block_size", d->pbs);
	json_str(j, "transport", d->transport);
	json_str(j, "link", d->link[0] ? d->link : NULL);
	json_str(j, "controller", d->controller >= 0 ?
		 inv->ctrls[d->controller].pci : NULL);
	json_str(j, "sysfs_device", d->devpath);
	json_str(j, "scsi_address", d->hctl[0] ? d->hctl : NULL);
	if (d->has_slot)
		enclosure_json(j, "slot", &d->slot);
	json_bool(j, "raid_volume", d->raid_volume);
	json_bool(j, "removable", d->removable);
	json_str(j, "partitions", d->safety.partitions);
	json_str(j, "holders", d->holders);
	json_str(j, "unusable", d->unusable[0] ? d->unusable : NULL);
	if (sanstatus_name(d->san.state)) {
		json_begin(j, "sanitize");
		json_str(j, "state", sanstatus_name(d->san.state));
		if (d->san.state == SANSTATUS_RUNNING)
			json_u64(j, "percent", d->san.percent);
		json_str(j, "why", d->san.why);
		json_end(j);
	}
	safety_json(j, &d->safety);
	json_bool(j, "read", d->safety.scanned);
	hidden_json(j, "hidden", &d->hidden);
	json_disk_phys(j, d, inv);
	json_end(j);
}

char *inventory_json(const struct discover_inventory *inv, size_t *len)
{
	const struct machine_system *s = &inv->sys;
	struct json j;
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "schema", "kiln-inventory");
	json_u64(&j, "schema_version", INVENTORY_SCHEMA);
	json_begin(&j, "system");
	json_str(&j, "vendor", s->vendor);
	json_str(&j, "product", s->product);
	json_str(&j, "serial", s->serial);
	json_bool(&j, "serial_real", machine_serial_real(s->serial));
	json_str(&j, "board_vendor", s->board_vendor);
	json_str(&j, "board", s->board);
	json_str(&j, "bios_vendor", s->bios_vendor);
	json_str(&j, "bios_version", s->bios_version);
	json_str(&j, "bios_date", s->bios_date);
	json_str(&j, "cpu", s->cpu);
	json_u64(&j, "cpus", (uint64_t)s->cpus);
	json_u64(&j, "sockets", (uint64_t)s->sockets);
	json_u64(&j, "memory", s->memory);
	json_str(&j, "machine_id", s->machine_id);
	json_str(&j, "asset_tag", s->asset_tag[0] ? s->asset_tag : NULL);
	json_str(&j, "chassis_serial", s->chassis_serial[0] ?
		 s->chassis_serial : NULL);
	json_end(&j);

	/* SMBIOS type 17: what the expect file's dimm keys are held to. */
	json_array(&j, "dimms");
	for (i = 0; i < inv->ndimms && i < DISCOVER_MAX_DIMMS; i++) {
		const struct smbios_dimm *d = &inv->dimms[i];

		json_begin(&j, NULL);
		json_str(&j, "locator", d->locator);
		json_u64(&j, "size", d->size);
		if (d->speed)
			json_u64(&j, "speed_mts", d->speed);
		else
			json_null(&j, "speed_mts");
		json_str(&j, "part", d->part[0] ? d->part : NULL);
		json_end(&j);
	}
	json_array_end(&j);

	json_array(&j, "nics");
	for (i = 0; i < inv->nnics; i++) {
		const struct machine_nic *n = &inv->nics[i];

		json_begin(&j, NULL);
		json_str(&j, "name", n->name);
		json_str(&j, "mac", n->mac);
		json_str(&j, "driver", n->driver);
		if (n->speed > 0)
			json_i64(&j, "speed_mbps", n->speed);
		else
			json_null(&j, "speed_mbps");
		json_str(&j, "state", n->state);
		json_bool(&j, "wireless", n->wireless);
		json_end(&j);
	}
	json_array_end(&j);

	json_array(&j, "controllers");
	for (i = 0; i < inv->nctrls; i++) {
		const struct pci_controller *c = &inv->ctrls[i];
		char id[16];

		json_begin(&j, NULL);
		json_str(&j, "pci", c->pci);
		snprintf(id, sizeof(id), "0x%06x", c->class_code);
		json_str(&j, "class", id);
		json_str(&j, "kind", c->kind);
		json_bool(&j, "storage_class", c->storage);
		snprintf(id, sizeof(id), "%04x", c->vendor);
		json_str(&j, "vendor_id", id);
		snprintf(id, sizeof(id), "%04x", c->device);
		json_str(&j, "device_id", id);
		json_str(&j, "vendor", c->vendor_name);
		json_str(&j, "device", c->device_name);
		json_str(&j, "driver", c->driver[0] ? c->driver : NULL);
		if (c->numa >= 0)
			json_i64(&j, "numa_node", c->numa);
		else
			json_null(&j, "numa_node");
		json_str(&j, "link_speed",
			 c->link_speed[0] ? c->link_speed : NULL);
		json_i64(&j, "link_width", c->link_width);
		json_str(&j, "max_link_speed",
			 c->max_link_speed[0] ? c->max_link_speed : NULL);
		json_i64(&j, "max_link_width", c->max_link_width);
		json_bool(&j, "link_below_max", c->degraded);
		json_num(&j, "link_mbps_per_direction", c->link_mbps);
		json_str(&j, "behind_vmd", c->vmd[0] ? c->vmd : NULL);
		json_u64(&j, "disks", (uint64_t)c->ndisks);
		json_end(&j);
	}
	json_array_end(&j);

	json_array(&j, "disks");
	for (i = 0; i < inv->ndisks; i++)
		json_disk(&j, &inv->disks[i], inv);
	json_array_end(&j);
	json_phys(&j, inv);
	json_end(&j);
	return json_take(&j, len);
}
