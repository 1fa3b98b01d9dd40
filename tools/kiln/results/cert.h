/* SPDX-License-Identifier: MIT */
#ifndef KILN_CERT_H
#define KILN_CERT_H

#include <stddef.h>
#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * The certificates of how a run left its disks (end=): for each disk
 * cert-<serial>.json and a printable cert-<serial>.html (the drive, the
 * machine, who ran it, the burn-in's verdict, the method and what it
 * promises, what the read-back read and found), and cert-machine.html
 * for every disk. Each document is a function of the record; sysroot is
 * where a drive's firmware revision is read when the record has none.
 * NULL on no memory.
 */
char *cert_disk_json(const struct record *r, const struct record_disk *d,
		     const char *sysroot, size_t *len);
char *cert_disk_html(const struct record *r, const struct record_disk *d,
		     const char *sysroot, size_t *len);
char *cert_machine_html(const struct record *r, size_t *len);

/*
 * Whether disk d gets a certificate: every disk its end step ran on, and
 * a FAILed disk kept as it is for its RMA ("not sanitized: destroy").
 */
int cert_made(const struct record_disk *d);

/*
 * Disk i's certificate, "cert-<serial>.<ext>": its serial (else its
 * label) made a file name. Two disks of one serial (an NVMe drive's
 * namespaces), serials alike but for case, or a serial "machine" each
 * get "cert-<serial>+<label>.<ext>", so no certificate writes over
 * another or over cert-machine.html; len of 200 holds every name.
 */
void cert_name(const struct record *r, int i, const char *ext, char *out,
	       size_t len);

/*
 * "end" in result.json: the method asked, and for each disk how it was
 * left, what the read-back found and its certificates' SHA-256; the
 * machine's certificate's. Nothing when end=keep.
 */
void cert_out_json(struct json *j, const struct record *r);

#endif
