/* SPDX-License-Identifier: MIT */
/*
 * Description: the BMC's event log (SEL) from its bytes (see sel.h):
 * records parsed, Get SEL Info read, each entry classed (critical or a
 * fact) and said in words, and the entries added between two reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kiln.h"
#include "sense/sel.h"

/* Sensor types (IPMI 2.0 table 42-3) kiln names; the rest by number. */
enum {
	ST_TEMPERATURE = 0x01,
	ST_PROCESSOR = 0x07,
	ST_POWER_SUPPLY = 0x08,
	ST_MEMORY = 0x0c,
	ST_WATCHDOG1 = 0x11,
	ST_CRITICAL_INTERRUPT = 0x13,
	ST_WATCHDOG2 = 0x23,
};

#define EVT_THRESHOLD 0x01
#define EVT_SPECIFIC 0x6f

static const char *const sensor_types[] = {
	[0x01] = "Temperature", [0x02] = "Voltage", [0x03] = "Current",
	[0x04] = "Fan", [0x05] = "Physical security",
	[0x06] = "Platform security", [0x07] = "Processor",
	[0x08] = "Power supply", [0x09] = "Power unit",
	[0x0a] = "Cooling device", [0x0c] = "Memory", [0x0d] = "Drive slot",
	[0x0f] = "System firmware progress",
	[0x10] = "Event logging disabled", [0x11] = "Watchdog",
	[0x12] = "System event", [0x13] = "Critical interrupt",
	[0x14] = "Button", [0x19] = "Chip set", [0x1b] = "Cable",
	[0x1d] = "System boot", [0x1e] = "Boot error", [0x1f] = "OS boot",
	[0x20] = "OS critical stop", [0x21] = "Slot/connector",
	[0x22] = "ACPI power state", [0x23] = "Watchdog",
	[0x24] = "Platform alert", [0x25] = "Entity presence",
	[0x28] = "Management subsystem health", [0x29] = "Battery",
	[0x2b] = "Version change",
};

/* Threshold events' offsets (table 42-2). */
static const char *const thresholds[] = {
	"lower non-critical going low", "lower non-critical going high",
	"lower critical going low", "lower critical going high",
	"lower non-recoverable going low", "lower non-recoverable going high",
	"upper non-critical going low", "upper non-critical going high",
	"upper critical going low", "upper critical going high",
	"upper non-recoverable going low", "upper non-recoverable going high",
};

/* Sensor-specific offsets (table 42-3) of the types that hold a class. */
static const char *const processor[] = {
	"IERR", "thermal trip", "FRB1/BIST failure", "FRB2 hang",
	"FRB3 failure", "configuration error", "uncorrectable CPU complex "
	"error", "presence detected", "disabled", "terminator presence",
	"throttled", "uncorrectable machine check", "correctable machine "
	"check",
};
static const char *const power_supply[] = {
	"presence detected", "power supply failure", "predictive failure",
	"input lost", "input lost or out of range", "input out of range",
	"configuration error", "inactive",
};
static const char *const memory[] = {
	"correctable ECC", "uncorrectable ECC", "parity", "scrub failed",
	"device disabled", "correctable ECC logging limit reached",
	"presence detected", "configuration error", "spare", "throttled",
	"critical overtemperature",
};
static const char *const interrupt[] = {
	"front panel NMI", "bus timeout", "I/O channel check NMI",
	"software NMI", "PCI PERR", "PCI SERR", "EISA fail-safe timeout",
	"bus correctable error", "bus uncorrectable error", "fatal NMI",
	"bus fatal error", "bus degraded",
};
static const char *const watchdog1[] = {
	"BIOS reset", "OS reset", "OS shut down", "OS power down",
	"OS power cycle", "OS NMI", "expired", "pre-timeout interrupt",
};
static const char *const watchdog2[] = {
	"timer expired", "hard reset", "power down", "power cycle", NULL,
	NULL, NULL, NULL, "timer interrupt",
};

static const char *const class_names[SEL_CLASSES] = {
	"", "power supply failure", "temperature critical",
	"uncorrectable memory ECC", "bus fatal error", "processor error",
	"watchdog fired",
};

#define NAME(t, i) ((i) < ARRAY_SIZE(t) ? (t)[i] : NULL)

void sel_parse(const uint8_t raw[SEL_RECORD], struct sel_entry *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->raw, raw, SEL_RECORD);
	e->id = raw[0] | (unsigned)raw[1] << 8;
	e->type = raw[2];
	e->time = raw[3] | (uint32_t)raw[4] << 8 | (uint32_t)raw[5] << 16 |
		  (uint32_t)raw[6] << 24;
	e->sensor_type = raw[10];
	e->sensor = raw[11];
	e->deasserted = !!(raw[12] & 0x80);
	e->event_type = raw[12] & 0x7f;
	e->offset = raw[13] & 0x0f;
}

int sel_log_parse(struct sel_log *log, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i, n = len / SEL_RECORD;

	memset(log, 0, sizeof(*log));
	if (len % SEL_RECORD)
		return -EINVAL;
	if (!n)
		return 0;
	log->e = calloc(n, sizeof(*log->e));
	if (!log->e)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sel_parse(p + i * SEL_RECORD, &log->e[i]);
	log->n = (int)n;
	return 0;
}

void sel_log_free(struct sel_log *log)
{
	free(log->e);
	log->e = NULL;
	log->n = 0;
}

int sel_info_parse(const char *text, struct sel_info *i)
{
	uint8_t b[14];
	unsigned v;
	int n = 0, used;

	while (n < 14 && sscanf(text, " %2x%n", &v, &used) == 1) {
		b[n++] = (uint8_t)v;
		text += used;
	}
	if (n < 14)
		return -EINVAL;
	memset(i, 0, sizeof(*i));
	i->version = b[0];
	i->entries = b[1] | (unsigned)b[2] << 8;
	i->free_bytes = b[3] | (unsigned)b[4] << 8;
	i->added = b[5] | (uint32_t)b[6] << 8 | (uint32_t)b[7] << 16 |
		   (uint32_t)b[8] << 24;
	i->erased = b[9] | (uint32_t)b[10] << 8 | (uint32_t)b[11] << 16 |
		    (uint32_t)b[12] << 24;
	i->overflow = !!(b[13] & 0x80);
	return 0;
}

int sel_class(const struct sel_entry *e)
{
	unsigned o = e->offset;

	if (e->type != SEL_TYPE_SYSTEM || e->deasserted)
		return SEL_FACT;
	if (e->event_type == EVT_THRESHOLD) {
		/* Upper critical or non-recoverable, either way it went. */
		if (e->sensor_type == ST_TEMPERATURE && o >= 0x08 && o <= 0x0b)
			return SEL_TEMPERATURE;
		return SEL_FACT;
	}
	if (e->event_type != EVT_SPECIFIC)
		return SEL_FACT;
	switch (e->sensor_type) {
	case ST_POWER_SUPPLY:
		return o == 0x01 ? SEL_POWER_SUPPLY : SEL_FACT;
	case ST_MEMORY:
		return o == 0x01 ? SEL_MEMORY_UE : SEL_FACT;
	case ST_CRITICAL_INTERRUPT:
		return o == 0x04 || o == 0x05 || o == 0x09 || o == 0x0a ?
		       SEL_BUS_FATAL : SEL_FACT;
	case ST_PROCESSOR:
		return o == 0x00 || o == 0x01 || o == 0x0b ? SEL_PROCESSOR :
		       SEL_FACT;
	case ST_WATCHDOG1:
		/* The pre-timeout interrupt (07h) warns; it is no firing. */
		return o <= 0x06 ? SEL_WATCHDOG : SEL_FACT;
	case ST_WATCHDOG2:
		return o <= 0x03 ? SEL_WATCHDOG : SEL_FACT;
	}
	return SEL_FACT;
}

const char *sel_class_name(int class)
{
	return class >= 0 && class < SEL_CLASSES ? class_names[class] : "";
}

/* The words of a sensor-specific offset, NULL when kiln has none. */
static const char *specific(unsigned type, unsigned o)
{
	switch (type) {
	case ST_PROCESSOR:
		return NAME(processor, o);
	case ST_POWER_SUPPLY:
		return NAME(power_supply, o);
	case ST_MEMORY:
		return NAME(memory, o);
	case ST_CRITICAL_INTERRUPT:
		return NAME(interrupt, o);
	case ST_WATCHDOG1:
		return NAME(watchdog1, o);
	case ST_WATCHDOG2:
		return NAME(watchdog2, o);
	}
	return NULL;
}

void sel_describe(const struct sel_entry *e, char *buf, size_t len)
{
	const char *type = NAME(sensor_types, e->sensor_type);
	const char *what = NULL;
	char num[24];

	if (e->type != SEL_TYPE_SYSTEM) {
		snprintf(buf, len, "OEM record type %02Xh", e->type);
		return;
	}
	if (!type) {
		snprintf(num, sizeof(num), "Sensor type %02Xh", e->sensor_type);
		type = num;
	}
	if (e->event_type == EVT_THRESHOLD)
		what = NAME(thresholds, e->offset);
	else if (e->event_type == EVT_SPECIFIC)
		what = specific(e->sensor_type, e->offset);
	if (what)
		snprintf(buf, len, "%s sensor %02Xh: %s%s", type, e->sensor,
			 what, e->deasserted ? " (deasserted)" : "");
	else
		snprintf(buf, len, "%s sensor %02Xh: event type %02Xh offset "
			 "%Xh%s", type, e->sensor, e->event_type, e->offset,
			 e->deasserted ? " (deasserted)" : "");
}

/* The entry of log with id, or NULL. */
static const struct sel_entry *by_id(const struct sel_log *log, unsigned id)
{
	int i;

	for (i = 0; i < log->n; i++)
		if (log->e[i].id == id)
			return &log->e[i];
	return NULL;
}

int sel_added(const struct sel_log *before, const struct sel_log *after,
	      int *added, int max, struct sel_change *c)
{
	int i, n = 0, gone = 0, changed = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < after->n; i++) {
		const struct sel_entry *was = by_id(before, after->e[i].id);

		if (was && !memcmp(was->raw, after->e[i].raw, SEL_RECORD))
			continue;
		changed += !!was;
		if (n < max)
			added[n] = i;
		n++;
	}
	for (i = 0; i < before->n; i++)
		gone += !by_id(after, before->e[i].id);
	/*
	 * An erase moves the erase time; a log cleared and refilled to the
	 * same ids shows as changed bytes even where the BMC keeps no time.
	 */
	if (before->have_info && after->have_info &&
	    before->info.erased != after->info.erased)
		c->cleared = 1;
	if (changed)
		c->cleared = 1;
	if (gone && !c->cleared)
		c->wrapped = 1;
	if (after->have_info && after->info.overflow &&
	    !(before->have_info && before->info.overflow))
		c->overflow = 1;
	return n;
}
