/* SPDX-License-Identifier: MIT */
/*
 * Description: the kernel's log read as a burn-in signal. Lines recorded
 * from Debian's kernel in QEMU (read errors on NVMe, AHCI, MegaRAID,
 * mptsas, virtio-scsi and virtio-blk disks; timeouts and resets; AER
 * injected; a disk unplugged), as /dev/kmsg gives them and as dmesg
 * prints them: each trouble line counted for the disk it names, the same
 * either way. Real-world formats of drivers QEMU has not (mpt3sas,
 * MegaRAID firmware events, libata link trouble, NVMe resets, AER, DPC,
 * pciehp): each line's kind and disks, as the fixture says. Reading a log
 * from "now" without blocking, counting records lost; odd input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "sense/kmsgwatch.h"

static char *slurp(const char *name, size_t *len)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/fixtures/kmsg/%s", name);
	return tap_slurp(path, len);
}

static void disk(struct kmsgwatch_disk *d, const char *name, int h, int c,
		 int t, int l, int ata, int nvme, const char *pci0,
		 const char *pci1, const char *hba)
{
	kmsgwatch_disk_init(d);
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->host = h;
	d->channel = c;
	d->target = t;
	d->lun = l;
	d->ata = ata;
	d->nvme = nvme;
	snprintf(d->pci[0], sizeof(d->pci[0]), "%s", pci0 ? pci0 : "");
	snprintf(d->pci[1], sizeof(d->pci[1]), "%s", pci1 ? pci1 : "");
	snprintf(d->hba, sizeof(d->hba), "%s", hba ? hba : "");
}

/* The guest of scripts/signals-capture.sh, as qemu-q35.truth says. */
enum { NVME0, NVME1, SDA, SDB, SDC, SDD, SDE, SDF, VDA, QEMU_DISKS };

static void qemu_disks(struct kmsgwatch_disk *d)
{
	disk(&d[NVME0], "nvme0n1", -1, -1, -1, -1, -1, 0, "0000:01:00.0",
	     "0000:00:01.0", NULL);
	disk(&d[NVME1], "nvme1n1", -1, -1, -1, -1, -1, 1, "0000:05:00.0",
	     "0000:00:05.0", NULL);
	disk(&d[SDA], "sda", 1, 2, 0, 0, -1, -1, "0000:02:00.0", "0000:00:02.0",
	     NULL);
	disk(&d[SDB], "sdb", 0, 0, 0, 0, -1, -1, "0000:00:06.0", NULL, "ioc0");
	disk(&d[SDC], "sdc", 2, 0, 0, 0, 1, -1, "0000:00:1f.2", NULL, NULL);
	disk(&d[SDD], "sdd", 3, 0, 0, 0, 2, -1, "0000:00:1f.2", NULL, NULL);
	d[SDC].sata_gbps = d[SDD].sata_gbps = 1.5;
	disk(&d[SDE], "sde", 8, 0, 0, 0, -1, -1, "0000:03:00.0", "0000:00:03.0",
	     NULL);
	disk(&d[SDF], "sdf", 8, 0, 1, 0, -1, -1, "0000:03:00.0", "0000:00:03.0",
	     NULL);
	disk(&d[VDA], "vda", -1, -1, -1, -1, -1, -1, "0000:04:00.0",
	     "0000:00:04.0", NULL);
}

/* The run watches from its start: the capture's first step on. */
static void watch_run(struct kmsgwatch *w, const struct kmsgwatch_disk *d,
		      const char *name)
{
	size_t len;
	char *text = slurp(name, &len), *at = strstr(text, "kiln-capture: step smartctl");

	if (!at)
		tap_bail("%s: no start marker", name);
	while (at > text && at[-1] != '\n')
		at--;
	kmsgwatch_init(w, d, QEMU_DISKS);
	kmsgwatch_text(w, at, len - (size_t)(at - text));
	free(text);
}

static int counts(const struct kmsgwatch_tally *t, unsigned total,
		  const int *kinds)
{
	unsigned sum = 0;

	for (; kinds[0] >= 0; kinds += 2) {
		if (t->count[kinds[0]] != (unsigned)kinds[1])
			return 0;
		sum += (unsigned)kinds[1];
	}
	return sum == total && t->total == total;
}

static void qemu(void)
{
	struct kmsgwatch_disk d[QEMU_DISKS];
	struct kmsgwatch k, m;
	int i, same = 1;

	qemu_disks(d);
	watch_run(&k, d, "qemu-q35.kmsg");
	watch_run(&m, d, "qemu-q35.dmesg");
	tap_ok(counts(&k.tally[NVME0], 4, (const int[]){ KMSG_MEDIUM, 1,
		      KMSG_TIMEOUT, 1, KMSG_ABORT, 1, KMSG_AER_CORRECTED, 1, -1 }) &&
	       k.tally[NVME0].direct == 3,
	       "nvme0n1: a media error (its block line), a timeout and its "
	       "abort, AER at its root port");
	tap_ok(counts(&k.tally[SDC], 8, (const int[]){ KMSG_ATA, 6,
		      KMSG_LINK, 1, KMSG_IO_ERROR, 1, -1 }),
	       "sdc (AHCI, read error): 6 libata exceptions, NCQ turned off, "
	       "one failed request");
	tap_ok(counts(&k.tally[SDD], 21, (const int[]){ KMSG_ATA, 6,
		      KMSG_TIMEOUT, 6, KMSG_RESET, 6, KMSG_LINK, 2,
		      KMSG_IO_ERROR, 1, -1 }),
	       "sdd (AHCI, held): 6 timeouts, 6 link resets, NCQ off and "
	       "speed limited; a link back at its speed is no trouble");
	tap_ok(counts(&k.tally[SDB], 4, (const int[]){ KMSG_IO_ERROR, 2,
		      KMSG_TIMEOUT, 1, KMSG_ABORT, 1, -1 }) &&
	       k.tally[SDB].direct == 3,
	       "sdb (mptsas): mptscsih's ioc0 abort is its controller's");
	tap_ok(counts(&k.tally[SDE], 4, (const int[]){ KMSG_IO_ERROR, 1,
		      KMSG_AER_CORRECTED, 2, KMSG_AER_NONFATAL, 1, -1 }) &&
	       counts(&k.tally[SDF], 6, (const int[]){ KMSG_IO_ERROR, 1,
		      KMSG_ABORT, 1, KMSG_GONE, 1, KMSG_AER_CORRECTED, 2,
		      KMSG_AER_NONFATAL, 1, -1 }),
	       "virtio-scsi: its AER for both its disks; the unplugged one "
	       "aborted, failed, gone");
	tap_ok(counts(&k.tally[SDA], 1, (const int[]){ KMSG_IO_ERROR, 1, -1 }) &&
	       counts(&k.tally[VDA], 2, (const int[]){ KMSG_IO_ERROR, 1,
		      KMSG_AER_FATAL, 1, -1 }) &&
	       k.tally[NVME1].total == 0 && k.tally[QEMU_DISKS].total == 0,
	       "sda (MegaRAID) and vda: their errors; nothing for the "
	       "machine, nothing for the idle disk");
	for (i = 0; i <= QEMU_DISKS; i++)
		same &= !memcmp(k.tally[i].count, m.tally[i].count,
				sizeof(k.tally[i].count)) &&
			k.tally[i].direct == m.tally[i].direct;
	tap_ok(same, "dmesg's text of the same run counts the same");
	tap_ok(k.tally[SDC].nkept == KMSGWATCH_KEEP &&
	       !strcmp(k.tally[SDC].kept[0], "[   57.534758] ata1.00: exception "
		       "Emask 0x1 SAct 0x4000 SErr 0x0 action 0x0") &&
	       strstr(k.tally[SDD].kept[1], "dma 4096 in | res 40/00:01:06"),
	       "the first lines kept as dmesg shows them; a message of two "
	       "lines joined");
	tap_ok(k.lost == 0 && k.lines == 209, "209 records, none lost");
	kmsgwatch_free(&k);
	kmsgwatch_free(&m);
}

static void records(void)
{
	static const char rec[] = "3,671,59665269,-;sd 2:0:0:0: [sdc] tag#7 "
		"FAILED Result: hostbyte=DID_TIME_OUT driverbyte=DRIVER_OK\n"
		" SUBSYSTEM=scsi\n DEVICE=+scsi:2:0:0:0\n";
	static const char aer[] = "3,700,1000,-;AER: error from upstream\n"
		" SUBSYSTEM=pci\n DEVICE=+pci:0000:03:00.0\n";
	struct kmsg_line l;

	tap_ok(kmsg_parse(rec, sizeof(rec) - 1, &l) == 0 && l.prio == 3 &&
	       l.seq == 671 && l.usec == 59665269 && l.kind == KMSG_TIMEOUT &&
	       !strcmp(l.names.block, "sdc") && l.names.host == 2 &&
	       l.names.lun == 0 && !strncmp(l.text, "sd 2:0:0:0:", 11),
	       "a /dev/kmsg record: level, sequence, time, text, names");
	tap_ok(kmsg_parse(aer, sizeof(aer) - 1, &l) == 0 &&
	       !strcmp(l.names.pci, "0000:03:00.0") && l.kind == KMSG_NONE,
	       "DEVICE=+pci: names a function the text does not");
	tap_ok(kmsg_parse("<3>[ 1234.567890] ata5: hard resetting link", 44,
			  &l) == 0 && l.prio == 3 && l.usec == 1234567890 &&
	       l.names.ata == 5 && l.names.ata_dev == -1 &&
	       l.kind == KMSG_RESET,
	       "dmesg -r: level and time");
	kmsg_names_of("nvme1c2n3: Read(0x2) @ LBA 77, 8 blocks, Unrecovered "
		      "Read Error (sct 0x2 / sc 0x81) DNR", &l.names);
	tap_ok(!strcmp(l.names.block, "nvme1n3") && l.names.nvme == 2,
	       "a multipath path (nvme1c2n3): its namespace and controller");
	tap_ok(kmsg_parse("ata1.00: cmd 60/00:30:00:10:00/01:00:00:00:00/40 "
			  "tag 6 ncq dma 131072 in", 73, &l) == 0 &&
	       l.names.host == -1 && l.names.ata == 1,
	       "an ATA taskfile's numbers are not a SCSI address");
}

struct expect {
	int kind;
	char disks[128];
};

static int kind_of(const char *word)
{
	static const char *const words[KMSG_KINDS] = {
		"none", "medium", "io", "timeout", "abort", "reset", "link",
		"ata", "scsi", "gone", "hba", "aer-cor",
		"aer-nonfatal", "aer-fatal",
	};
	int k;

	for (k = 0; k < KMSG_KINDS; k++)
		if (!strcmp(word, words[k]))
			return k;
	tap_bail("formats.dmesg: no kind %s", word);
}

static void formats(void)
{
	struct kmsgwatch_disk d[8];
	struct kmsgwatch w;
	size_t len;
	char *text = slurp("formats.dmesg", &len), *line, *save = NULL;
	int lines = 0, bad = 0, i;

	disk(&d[0], "sdc", 2, 0, 0, 0, 3, -1, "0000:00:17.0", NULL, NULL);
	disk(&d[1], "sdd", 3, 0, 0, 0, 4, -1, "0000:00:17.0", NULL, NULL);
	d[0].sata_gbps = 6.0;
	disk(&d[2], "nvme0n1", -1, -1, -1, -1, -1, 0, "0000:02:00.0",
	     "0000:00:1c.0", NULL);
	disk(&d[3], "nvme1n1", -1, -1, -1, -1, -1, 1, "0000:03:00.0",
	     "0000:00:1d.0", NULL);
	disk(&d[4], "sdf", 5, 0, 3, 0, -1, -1, "0000:04:00.0", "0000:00:01.0",
	     "mpt3sas_cm0");
	disk(&d[5], "sdg", 5, 0, 4, 0, -1, -1, "0000:04:00.0", "0000:00:01.0",
	     "mpt3sas_cm0");
	disk(&d[6], "sdh", 6, 2, 0, 0, -1, -1, "0000:05:00.0", "0000:00:02.0",
	     NULL);
	disk(&d[7], "sdj", 7, 0, 0, 0, -1, -1, "0000:06:00.0", NULL, "ioc0");
	kmsgwatch_init(&w, d, 8);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t'), *colon, got[128] = "";
		unsigned before[9];
		struct expect e;
		int kind;

		if (line[0] == '#' || !tab)
			continue;
		*tab = 0;
		colon = strchr(line, ':');
		if (colon)
			*colon = 0;
		e.kind = kind_of(line);
		snprintf(e.disks, sizeof(e.disks), "%s", colon ? colon + 1 : "");
		for (i = 0; i <= 8; i++)
			before[i] = w.tally[i].total;
		kind = kmsgwatch_line(&w, tab + 1, strlen(tab + 1));
		for (i = 0; i <= 8; i++)
			if (w.tally[i].total != before[i])
				snprintf(got + strlen(got), sizeof(got) - strlen(got),
					 "%s%s", got[0] ? "," : "",
					 i < 8 ? d[i].name : "-");
		lines++;
		if (kind != e.kind || strcmp(got, e.disks)) {
			bad++;
			tap_diag("%s: got %s:%s, want %s:%s", tab + 1,
				 kmsg_kind_name(kind), got,
				 kmsg_kind_name(e.kind), e.disks);
		}
	}
	tap_ok(lines == 86 && !bad,
	       "%d lines in the drivers' formats: each of the right kind, "
	       "counted for the right disks (%d wrong)", lines, bad);
	kmsgwatch_free(&w);
	free(text);
}

/* A log file the test appends to, read as kiln reads /dev/kmsg. */
static void reader(void)
{
	char path[] = "/tmp/kiln-kmsg-XXXXXX", *logged = NULL;
	struct kmsgwatch_disk d[1];
	struct kmsgwatch w, again;
	size_t loglen = 0;
	FILE *log;
	int fd = mkstemp(path), n1, n2, n3;

	disk(&d[0], "sdb", 1, 0, 0, 0, -1, -1, NULL, NULL, NULL);
	if (fd < 0)
		tap_bail("mkstemp");
	dprintf(fd, "3,1,100,-;I/O error, dev sdb, sector 1 op 0x0:(READ)\n");
	kmsgwatch_init(&w, d, 1);
	log = open_memstream(&logged, &loglen);
	w.log = log;
	tap_ok(kmsgwatch_open(&w, path) == 0 && kmsgwatch_read(&w) == 0 &&
	       w.lines == 0, "opened at its end: what was there is not read");
	dprintf(fd, "3,10,2000000,-;I/O error, dev sdb, sector 8 op 0x0:(READ)\n"
		" SUBSYSTEM=block\n DEVICE=b8:16\n3,11,2000100,-;sd 1:0:0:0: "
		"[sdb] tag#1 timing out com");
	n1 = kmsgwatch_read(&w);
	dprintf(fd, "mand, waited 30s\n4,14,3000000,-;ata9: hard resetting link\n");
	n2 = kmsgwatch_read(&w);
	n3 = kmsgwatch_read(&w);
	tap_ok(n1 >= 1 && n2 >= 1 && n3 == 0 &&
	       w.tally[0].count[KMSG_IO_ERROR] == 1 &&
	       w.tally[0].count[KMSG_TIMEOUT] == 1 && w.tally[1].total == 1 &&
	       w.lines == 3 && w.lost == 2,
	       "appended records read as they come, a line cut in two read "
	       "whole, 2 records lost in the gap of sequence numbers");
	fclose(log);
	kmsgwatch_init(&again, d, 1);
	kmsgwatch_text(&again, logged, loglen);
	tap_ok(again.tally[0].total == 2 && again.tally[1].total == 1 &&
	       strstr(logged, "[    2.000000] I/O error, dev sdb"),
	       "the log kept (kmsg.log) reads back the same");
	kmsgwatch_free(&again);
	kmsgwatch_free(&w);
	free(logged);
	close(fd);
	unlink(path);
	kmsgwatch_init(&w, d, 1);
	tap_ok(kmsgwatch_read(&w) == -EBADF &&
	       kmsgwatch_open(&w, "/nonexistent/kmsg") == -ENOENT,
	       "not open, or no log: said, never a crash");
	kmsgwatch_free(&w);
}

/* The machine's own /dev/kmsg: from now on, never blocking. */
static void live(void)
{
	static const char mark[] = "kiln unit test: kmsgwatch reads this line\n";
	struct kmsgwatch w;
	char *logged = NULL;
	size_t loglen = 0;
	int fd, n;

	kmsgwatch_init(&w, NULL, 0);
	if (kmsgwatch_open(&w, "/dev/kmsg") < 0) {
		tap_skip("/dev/kmsg cannot be read here");
		kmsgwatch_free(&w);
		return;
	}
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	/*
	 * The newline ends the record: without one the kernel holds it open
	 * for a continuation, and readers see it only when another comes.
	 */
	if (fd < 0 || write(fd, mark, sizeof(mark) - 1) < 0) {
		n = kmsgwatch_read(&w);
		tap_ok(n >= 0, "/dev/kmsg read without blocking (not writable "
		       "here: no line of our own)");
	} else {
		w.log = open_memstream(&logged, &loglen);
		n = kmsgwatch_read(&w);
		fflush(w.log);
		/* Other tests may be logging: give our line a moment. */
		for (int i = 0; i < 100 && !strstr(logged, "kmsgwatch reads");
		     i++) {
			usleep(10000);
			n += kmsgwatch_read(&w) > 0;
			fflush(w.log);
		}
		fclose(w.log);
		w.log = NULL;
		tap_ok(n >= 1 && logged && strstr(logged, "kmsgwatch reads this line"),
		       "/dev/kmsg: our own line read back, without blocking");
	}
	if (fd >= 0)
		close(fd);
	free(logged);
	kmsgwatch_free(&w);
}

static void odd(void)
{
	static const char *const lines[] = {
		"", "\n", "6,", "6,1,2", "6,1,2,-", "6,1,2,-;", ";", "[", "[]",
		"[ 1.0", "<", "<9999999>", " DEVICE=+pci:0000:03:00.0",
		"3,1,1,-;sd 99999999999:0:0:0: [sdzzzzzzzzzzzzzzzzzzzzzzzzzzz]",
		"3,1,1,-;nvme99999999999999999999n1: (sct 0x",
		"ata: ata.: ata1.x host hostx target target1: target1:2",
		"0000:00:00.8 10000:00:00.0 0000:zz:00.0 ffff:ff:ff.7",
		"3,18446744073709551615,18446744073709551615,-;x\\x0",
		"3,1,1,-;\\x0a\\x0a\\xzz\\x",
	};
	struct kmsgwatch_disk d[1];
	struct kmsgwatch w;
	char big[9000], junk[600];
	unsigned seed = 12345;
	size_t i, j;

	disk(&d[0], "sda", 0, 0, 0, 0, 1, 0, "0000:00:00.0", NULL, "ioc0");
	kmsgwatch_init(&w, d, 1);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		kmsgwatch_line(&w, lines[i], strlen(lines[i]));
	memset(big, 'a', sizeof(big));
	memcpy(big, "3,1,1,-;I/O error, dev sda, ", 28);
	kmsgwatch_line(&w, big, sizeof(big));
	kmsgwatch_text(&w, big, sizeof(big));
	for (i = 0; i < 2000; i++) {
		for (j = 0; j < sizeof(junk); j++) {
			seed = seed * 1103515245 + 12345;
			junk[j] = (char)(seed >> 16);
		}
		kmsgwatch_line(&w, junk, (seed >> 8) % sizeof(junk));
		kmsgwatch_text(&w, junk, sizeof(junk));
	}
	tap_ok(w.tally[0].count[KMSG_IO_ERROR] >= 2 &&
	       strlen(w.tally[0].kept[0]) < sizeof(w.tally[0].kept[0]),
	       "truncated records, escapes cut short, huge numbers, a line "
	       "of 9000 bytes, random bytes: read, bounded, no crash");
	kmsgwatch_free(&w);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(qemu);
	TAP_RUN(records);
	TAP_RUN(formats);
	TAP_RUN(reader);
	TAP_RUN(live);
	TAP_RUN(odd);
	return tap_done();
}
