/* SPDX-License-Identifier: MIT */
/*
 * Description: one line of the kernel's log (see kmsg.h): put in a kind
 * by the words its driver prints, with the names it carries. The block
 * layer's "<status> error, dev sdb, sector N" is the unit of a failed
 * request whatever the driver below, and says whether the medium failed;
 * so the drivers' details of the same failure (ATA taskfiles, sense data,
 * CDBs, NVMe status) are not counted again. What only a driver says (an
 * exception, a timeout, a reset, an abort, a link change) is counted.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sense/kmsg.h"

static const char *const kind_names[KMSG_KINDS] = {
	[KMSG_NONE] = "none",
	[KMSG_MEDIUM] = "medium error",
	[KMSG_IO_ERROR] = "I/O error",
	[KMSG_TIMEOUT] = "timeout",
	[KMSG_ABORT] = "abort",
	[KMSG_RESET] = "reset",
	[KMSG_LINK] = "link",
	[KMSG_ATA] = "ATA exception",
	[KMSG_SCSI] = "SCSI error",
	[KMSG_GONE] = "device lost",
	[KMSG_HBA] = "controller event",
	[KMSG_AER_CORRECTED] = "PCIe corrected error",
	[KMSG_AER_NONFATAL] = "PCIe uncorrected error",
	[KMSG_AER_FATAL] = "PCIe fatal error",
};

const char *kmsg_kind_name(int kind)
{
	return kind >= 0 && kind < KMSG_KINDS ? kind_names[kind] : "?";
}

/*
 * Words that make a line a trouble line, first match wins: the special
 * cases (AER severity, NVMe status type, SCSI hostbyte, the block layer's
 * status) are decided in kmsg_classify() before this table is read.
 */
static const struct rule {
	const char *words;
	int kind;
} rules[] = {
	/* libata: one exception per error-handler run, then its details */
	{ "exception Emask", KMSG_ATA },
	{ "SError: {", KMSG_ATA },
	{ "(timeout)", KMSG_TIMEOUT },	/* "res 40/00:.. Emask 0x4 (timeout)" */
	{ "qc timeout", KMSG_TIMEOUT },
	{ "hard resetting link", KMSG_RESET },
	{ "soft resetting link", KMSG_RESET },
	{ "COMRESET failed", KMSG_RESET },
	{ "forcing hardreset", KMSG_RESET },
	{ "SATA link down", KMSG_LINK },
	{ "limiting SATA link speed", KMSG_LINK },
	{ "limiting speed to", KMSG_LINK },
	{ "NCQ disabled due to excessive errors", KMSG_LINK },
	{ "link is slow to respond", KMSG_LINK },
	/* "error: { ICRC ABRT }": a bad cable */
	{ "{ ICRC", KMSG_LINK },
	/* NVMe (drivers/nvme/host/pci.c, core.c) */
	{ "timeout, aborting", KMSG_TIMEOUT },
	{ "timeout, reset controller", KMSG_TIMEOUT },
	{ "timeout, disable controller", KMSG_TIMEOUT },
	{ "timeout, completion polled", KMSG_TIMEOUT },
	{ "Abort status:", KMSG_ABORT },
	{ "controller is down; will reset", KMSG_RESET },
	{ "Device not ready; aborting", KMSG_GONE },
	{ "Removing after probe failure", KMSG_GONE },
	{ "Disabling device after reset failure", KMSG_GONE },
	/* SCSI error handling, the HBAs' own words */
	{ "timing out command", KMSG_TIMEOUT },
	{ "IO timeout is detected", KMSG_TIMEOUT },	/* megaraid_sas */
	{ "attempting task abort", KMSG_ABORT },
	{ "attempting device reset", KMSG_RESET },
	{ "attempting target reset", KMSG_RESET },
	{ "attempting bus reset", KMSG_RESET },
	{ "attempting host reset", KMSG_RESET },
	{ "megasas: RESET", KMSG_RESET },
	{ "initiating OCR", KMSG_RESET },
	{ "resetting fusion adapter", KMSG_RESET },
	{ "sending diag reset", KMSG_RESET },
	{ "rejecting I/O to offline device", KMSG_GONE },
	{ "Device offlined", KMSG_GONE },
	{ "removing ssp device", KMSG_GONE },
	{ "removing handle(", KMSG_GONE },
	{ "log_info(0x", KMSG_HBA },	/* mpt2sas, mpt3sas */
	{ "LogInfo(0x", KMSG_HBA },	/* mptbase */
	{ "fault_state(", KMSG_HBA },
	{ "FW in FAULT state", KMSG_HBA },
	{ "Diag reset adapter never cleared", KMSG_HBA },
	/* PCIe hotplug (pciehp) and links */
	{ "Link Down", KMSG_LINK },
	{ "Card not present", KMSG_GONE },
	{ "retraining non-functional downstream link", KMSG_LINK },
	{ "DPC: containment event", KMSG_AER_FATAL },
	/* a process stuck in the kernel, usually on a disk that stopped */
	{ "blocked for more than", KMSG_TIMEOUT },
};

/* A word the line ends with ("[sde] tag#156 abort": virtio_scsi's EH). */
static int ends_with(const char *text, const char *word)
{
	size_t n = strlen(text), w = strlen(word);

	while (n && text[n - 1] == ' ')
		n--;
	return n > w && text[n - w - 1] == ' ' &&
	       !strncmp(text + n - w, word, w);
}

/* The block layer's "<status> error, dev sdb, sector N" (blk_errors[]). */
static int block_status(const char *text)
{
	const char *at = strstr(text, " error, dev ");
	size_t n;

	if (!at) {
		if (strstr(text, "Buffer I/O error on dev"))
			return KMSG_IO_ERROR;
		return KMSG_NONE;
	}
	n = (size_t)(at - text);
	if (n >= 15 && !strncmp(at - 15, "critical medium", 15))
		return KMSG_MEDIUM;
	if (n >= 7 && !strncmp(at - 7, "timeout", 7))
		return KMSG_TIMEOUT;
	if (n >= 21 && !strncmp(at - 21, "recoverable transport", 21))
		return KMSG_LINK;
	if (n >= 14 && !strncmp(at - 14, "device offline", 14))
		return KMSG_GONE;
	return KMSG_IO_ERROR;
}

/* "FAILED Result: hostbyte=DID_X": what the host adapter said. */
static int hostbyte(const char *text)
{
	const char *h = strstr(text, "hostbyte=");

	if (!h)
		return -1;
	h += 9;
	if (!strncmp(h, "DID_OK", 6))
		return KMSG_NONE;	/* the sense and block lines say it */
	if (!strncmp(h, "DID_TIME_OUT", 12))
		return KMSG_TIMEOUT;
	if (!strncmp(h, "DID_NO_CONNECT", 14) ||
	    !strncmp(h, "DID_BAD_TARGET", 14))
		return KMSG_GONE;
	if (!strncmp(h, "DID_ABORT", 9))
		return KMSG_ABORT;
	if (!strncmp(h, "DID_RESET", 9))
		return KMSG_RESET;
	if (!strncmp(h, "DID_TRANSPORT", 13))
		return KMSG_LINK;
	return KMSG_SCSI;
}

/* MegaRAID firmware events: "6573 (729880393s/0x0002/CRIT) - text". */
static int megaraid_event(const char *text)
{
	static const char *const classes[] = {
		"/WARN) - ", "/CRIT) - ", "/FATAL) - ", "/DEAD) - ",
	};
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strstr(text, classes[i]))
			return 1;
	return 0;
}

int kmsg_classify(const char *text)
{
	const char *p;
	size_t i;
	int k;

	if ((p = strstr(text, "PCIe Bus Error: severity="))) {
		p += 25;
		if (!strncmp(p, "Corrected", 9))
			return KMSG_AER_CORRECTED;
		if (strstr(p, "Non-Fatal"))
			return KMSG_AER_NONFATAL;
		return KMSG_AER_FATAL;
	}
	/*
	 * NVMe's status of a command ("I/O Error (sct 0x2 / sc 0x81)"): a
	 * failed read or write has its block layer line too, and a failed
	 * admin command is most often a feature the drive does not have.
	 */
	if (strstr(text, "(sct 0x"))
		return KMSG_NONE;
	if ((k = block_status(text)) != KMSG_NONE)
		return k;
	if (strstr(text, "Result: ") && (k = hostbyte(text)) >= 0)
		return k;
	if (strstr(text, "Sense Key : Hardware Error"))
		return KMSG_SCSI;
	if (megaraid_event(text))
		return KMSG_HBA;
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strstr(text, rules[i].words))
			return rules[i].kind;
	if (ends_with(text, "abort"))
		return KMSG_ABORT;
	if (ends_with(text, "device reset"))
		return KMSG_RESET;
	/* libata gave up on a device: "ata3.00: disabled", and nothing more. */
	if (!strncmp(text, "ata", 3) && ends_with(text, "disabled") &&
	    strstr(text, ": disabled"))
		return KMSG_GONE;
	return KMSG_NONE;
}

/* Reads a decimal at *p; -1 if none, or with a leading zero and more. */
static int digit(char c)
{
	return c >= '0' && c <= '9';
}

static long decimal(const char **p)
{
	const char *s = *p;
	long v = 0;

	if (!digit(*s) || (s[0] == '0' && digit(s[1])))
		return -1;
	while (digit(*s) && v < 100000000)
		v = v * 10 + (*s++ - '0');
	*p = s;
	return v;
}

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int hexes(const char *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* 0000:03:00.0 (a domain of 4 or 5 digits, as behind VMD): its length. */
static int pci_at(const char *s)
{
	int d = hexes(s, 5) && s[5] == ':' ? 5 : 4;

	if (!hexes(s, d) || s[d] != ':' || !hexes(s + d + 1, 2) ||
	    s[d + 3] != ':' || !hexes(s + d + 4, 2) || s[d + 6] != '.' ||
	    s[d + 7] < '0' || s[d + 7] > '7' || word_char(s[d + 8]))
		return 0;
	return d + 8;
}

/* H:C:T:L, or H:C:T after "target"; no leading zeros (taskfiles have). */
static int scsi_at(const char *s, struct kmsg_names *n, int groups)
{
	const char *p = s;
	long v[4] = { -1, -1, -1, -1 };
	int i;

	for (i = 0; i < groups; i++) {
		if (i && *p++ != ':')
			return 0;
		if ((v[i] = decimal(&p)) < 0)
			return 0;
	}
	if (word_char(*p) || *p == '.' || (*p == ':' && digit(p[1])))
		return 0;
	if (n->host < 0) {
		n->host = (int)v[0];
		n->channel = (int)v[1];
		n->target = (int)v[2];
		n->lun = (int)v[3];
	}
	return (int)(p - s);
}

static void set_block(struct kmsg_names *n, const char *s, size_t len)
{
	if (!n->block[0] && len < sizeof(n->block)) {
		memcpy(n->block, s, len);
		n->block[len] = 0;
	}
}

/* sdb, sdb1, vda2, xvdc: a disk's name without its partition number. */
static int disk_at(const char *s, struct kmsg_names *n)
{
	size_t pre = !strncmp(s, "sd", 2) || !strncmp(s, "vd", 2) ? 2 :
		     !strncmp(s, "xvd", 3) ? 3 : 0;
	size_t e = pre, name;

	if (!pre)
		return 0;
	while (s[e] >= 'a' && s[e] <= 'z' && e < pre + 4)
		e++;
	if (e == pre)
		return 0;
	name = e;
	while (isdigit((unsigned char)s[e]))
		e++;
	if (word_char(s[e]))
		return 0;
	set_block(n, s, name);
	return (int)e;
}

/* nvme0 (a controller), nvme0n1[p2] (a namespace), nvme0c1n1 (a path). */
static int nvme_at(const char *s, struct kmsg_names *n)
{
	const char *p = s + 4, *ns;
	long a, c = -1;

	if (strncmp(s, "nvme", 4) || (a = decimal(&p)) < 0)
		return 0;
	if (*p == 'c') {
		p++;
		if ((c = decimal(&p)) < 0 || *p != 'n')
			return 0;
	}
	if (*p == 'n') {
		ns = p++;
		if (decimal(&p) < 0)
			return 0;
		if (c >= 0) {
			char head[32];

			snprintf(head, sizeof(head), "nvme%ldn%.*s", a,
				 (int)(p - ns - 1), ns + 1);
			set_block(n, head, strlen(head));
			if (n->nvme < 0)
				n->nvme = (int)c;
		} else {
			set_block(n, s, (size_t)(p - s));
		}
		if (*p == 'p' && isdigit((unsigned char)p[1]))
			for (p++; isdigit((unsigned char)*p); p++)
				;
	} else if (n->nvme < 0) {
		n->nvme = (int)a;
	}
	return word_char(*p) ? 0 : (int)(p - s);
}

/* mpt3sas_cm0, mpt2sas0 (older kernels), ioc0 (mptbase). */
static int hba_at(const char *s, struct kmsg_names *n)
{
	const char *p = s;

	if (!strncmp(s, "mpt2sas", 7) || !strncmp(s, "mpt3sas", 7)) {
		p += 7;
		if (!strncmp(p, "_cm", 3))
			p += 3;
	} else if (!strncmp(s, "ioc", 3)) {
		p += 3;
	} else {
		return 0;
	}
	if (decimal(&p) < 0 || word_char(*p))
		return 0;
	if (!n->hba[0])
		snprintf(n->hba, sizeof(n->hba), "%.*s", (int)(p - s), s);
	return (int)(p - s);
}

static void add_pci(struct kmsg_names *n, const char *s, int len)
{
	if (!n->pci[0]) {
		snprintf(n->pci, sizeof(n->pci), "%.*s", len, s);
	} else if (!n->pci2[0] && (strlen(n->pci) != (size_t)len ||
				   strncmp(n->pci, s, (size_t)len))) {
		snprintf(n->pci2, sizeof(n->pci2), "%.*s", len, s);
	}
}

void kmsg_names_clear(struct kmsg_names *n)
{
	memset(n, 0, sizeof(*n));
	n->ata = n->ata_dev = n->nvme = -1;
	n->host = n->channel = n->target = n->lun = -1;
}

void kmsg_names_of(const char *text, struct kmsg_names *n)
{
	const char *s;

	kmsg_names_clear(n);
	for (s = text; *s; s++) {
		const char *p;
		int len;
		long v;

		/* Names start a word: not inside one, not after ':' or '.'. */
		if (s > text &&
		    (word_char(s[-1]) || s[-1] == ':' || s[-1] == '.'))
			continue;
		if ((len = pci_at(s))) {
			add_pci(n, s, len);
		} else if (isdigit((unsigned char)*s)) {
			len = scsi_at(s, n, 4);
		} else if (!strncmp(s, "target", 6)) {
			len = scsi_at(s + 6, n, 3);
		} else if (!strncmp(s, "host", 4)) {
			p = s + 4;
			v = decimal(&p);
			if (v >= 0 && !word_char(*p) && n->host < 0)
				n->host = (int)v;
			len = (int)(p - s);
		} else if (!strncmp(s, "ata", 3)) {
			p = s + 3;
			if ((v = decimal(&p)) >= 0 && n->ata < 0) {
				long dev = -1;

				if (*p == '.' && isdigit((unsigned char)p[1])) {
					p++;
					dev = strtol(p, (char **)&p, 10);
				}
				if (!word_char(*p)) {
					n->ata = (int)v;
					n->ata_dev = (int)dev;
				}
			}
			len = (int)(p - s);
		} else if (!(len = nvme_at(s, n)) && !(len = disk_at(s, n))) {
			len = hba_at(s, n);
		}
		if (len > 1)
			s += len - 1;
	}
}

/* "+pci:0000:01:00.0" and "+scsi:2:0:0:0" in a record's DEVICE= line. */
static void dictionary(const char *s, size_t len, struct kmsg_names *n)
{
	char line[128];
	int at;

	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	memcpy(line, s, len);
	line[len] = 0;
	if (!strncmp(line, "DEVICE=+pci:", 12) && (at = pci_at(line + 12)))
		add_pci(n, line + 12, at);
	else if (!strncmp(line, "DEVICE=+scsi:", 13))
		scsi_at(line + 13, n, 4);
}

/* "6,1234,5678901,-;": /dev/kmsg's header; the text's offset, or 0. */
static size_t kmsg_header(const char *s, size_t len, struct kmsg_line *l)
{
	unsigned long long v[3] = { 0, 0, 0 };
	size_t i = 0;
	int f;

	for (f = 0; f < 3; f++) {
		if (i >= len || !isdigit((unsigned char)s[i]))
			return 0;
		for (; i < len && isdigit((unsigned char)s[i]); i++)
			v[f] = v[f] * 10 + (unsigned)(s[i] - '0');
		if (i >= len || s[i++] != ',')
			return 0;
	}
	while (i < len && s[i] != ';' && s[i] != ' ')
		i++;
	if (i >= len || s[i] != ';')
		return 0;
	l->prio = (int)(v[0] & 7);
	l->seq = (int64_t)v[1];
	l->usec = (int64_t)v[2];
	return i + 1;
}

/* "<3>" and "[   31.093242] " as dmesg prints them; the text's offset. */
static size_t dmesg_header(const char *s, size_t len, struct kmsg_line *l)
{
	size_t i = 0, j;

	if (len > 2 && s[0] == '<' && isdigit((unsigned char)s[1])) {
		for (j = 1; j < len && j < 6 && digit(s[j]); j++)
			;
		if (j < len && s[j] == '>') {
			l->prio = atoi(s + 1) & 7;
			i = j + 1;
		}
	}
	if (i < len && s[i] == '[') {
		const char *end = memchr(s + i, ']', len - i);
		char num[32];
		size_t n;

		if (!end || end - (s + i) > 40)
			return i;
		n = (size_t)(end - (s + i) - 1);
		snprintf(num, sizeof(num), "%.*s", (int)n, s + i + 1);
		{
			char *dot, *p = num;
			long long sec;

			while (*p == ' ')
				p++;
			sec = strtoll(p, &dot, 10);
			if (dot != p && *dot == '.' && digit(dot[1]))
				l->usec = sec * 1000000 +
					  strtoll(dot + 1, NULL, 10);
		}
		i = (size_t)(end - s) + 1;
		if (i < len && s[i] == ' ')
			i++;
	}
	return i;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	       c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * The text of a line, kept printable (it goes to consoles and reports):
 * /dev/kmsg writes a byte it would not print, backslash included, as
 * \xHH, and a message of several lines with \x0a between them, shown
 * here as " | ". A serial console's log ends its lines with CR LF.
 */
static size_t text_of(const char *s, size_t len, int escaped, char *out,
		      size_t size)
{
	size_t i, n = 0;

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	for (i = 0; i < len && n + 4 < size; i++) {
		int c = (unsigned char)s[i];

		if (escaped && c == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    hex(s[i + 2]) >= 0 && hex(s[i + 3]) >= 0) {
			c = hex(s[i + 2]) * 16 + hex(s[i + 3]);
			i += 3;
			if (c == '\n') {
				memcpy(out + n, " | ", 3);
				n += 3;
				while (i + 1 < len && s[i + 1] == ' ')
					i++;
				continue;
			}
		}
		out[n++] = c < ' ' || c >= 0x7f ? '?' : (char)c;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = 0;
	return n;
}

int kmsg_parse(const char *rec, size_t len, struct kmsg_line *l)
{
	const char *nl = memchr(rec, '\n', len);
	size_t end = nl ? (size_t)(nl - rec) : len, at, n;
	int escaped;

	memset(l, 0, sizeof(*l));
	l->prio = -1;
	l->seq = -1;
	l->usec = -1;
	kmsg_names_clear(&l->names);
	at = kmsg_header(rec, end, l);
	escaped = at > 0;
	if (!at)
		at = dmesg_header(rec, end, l);
	n = text_of(rec + at, end - at, escaped, l->text, sizeof(l->text));
	if (!n)
		return -EINVAL;
	l->kind = kmsg_classify(l->text);
	kmsg_names_of(l->text, &l->names);
	/* Dictionary lines: " KEY=VALUE", one a line, after the text. */
	while (nl && (size_t)(nl - rec) + 1 < len && nl[1] == ' ') {
		const char *s = nl + 2, *e;

		nl = memchr(s, '\n', len - (size_t)(s - rec));
		e = nl ? nl : rec + len;
		dictionary(s, (size_t)(e - s), &l->names);
	}
	return 0;
}

