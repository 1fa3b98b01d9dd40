/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's LLDP parser on frames built here as IEEE 802.1AB
 * lays them out (its TLV heads of 7 bits of type and 9 of length): the
 * chassis and port ids of each subtype said as text (a MAC address, an
 * IPv4 or IPv6 address, an interface name), the system name and port
 * description; a frame that is not a well-formed LLDPDU (another
 * EtherType, a mandatory TLV missing or out of order, a TLV past the
 * frame's end, a short TTL) is refused, never read past its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "sense/lldp.h"

struct frame {
	unsigned char b[1600];
	size_t len;
};

static void start(struct frame *f)
{
	static const unsigned char head[14] = {
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e,	/* nearest bridge */
		0x52, 0x54, 0x00, 0x12, 0x34, 0x56,	/* the switch port */
		0x88, 0xcc,
	};

	memcpy(f->b, head, sizeof(head));
	f->len = sizeof(head);
}

/* A TLV: type, then n bytes of value. */
static void tlv(struct frame *f, unsigned type, const void *v, size_t n)
{
	f->b[f->len++] = (unsigned char)(type << 1 | (n >> 8 & 1));
	f->b[f->len++] = (unsigned char)(n & 0xff);
	memcpy(f->b + f->len, v, n);
	f->len += n;
}

/* An id TLV: its subtype byte, then the id. */
static void id(struct frame *f, unsigned type, unsigned sub, const void *v,
	       size_t n)
{
	unsigned char buf[300];

	buf[0] = (unsigned char)sub;
	memcpy(buf + 1, v, n);
	tlv(f, type, buf, n + 1);
}

static const unsigned char mac[6] = { 0x00, 0x1b, 0x21, 0xaa, 0xbb, 0xcc };
static const unsigned char ttl[2] = { 0x00, 0x78 };

/* Where the usual frame's TLVs after chassis and port id end. */
static size_t whole_at[3];

/* A switch's usual frame: chassis MAC, port ifname, TTL, names, End. */
static void usual(struct frame *f)
{
	start(f);
	id(f, 1, 4, mac, sizeof(mac));
	id(f, 2, 5, "Ethernet1/7", 11);
	tlv(f, 3, ttl, sizeof(ttl));
	whole_at[0] = f->len;
	tlv(f, 4, "uplink to rack 12", 17);
	whole_at[1] = f->len;
	tlv(f, 5, "leaf-12.lab", 11);
	whole_at[2] = f->len;
	tlv(f, 0, "", 0);
}

static void test_good(void)
{
	static const unsigned char v4[5] = { 1, 10, 0, 3, 2 };
	unsigned char v6[17] = { 2, 0xfe, 0x80 };
	struct frame f;
	struct lldp l;

	usual(&f);
	tap_ok(lldp_parse(&l, f.b, f.len) == 0 &&
	       !strcmp(l.chassis, "00:1b:21:aa:bb:cc") &&
	       !strcmp(l.port, "Ethernet1/7") &&
	       !strcmp(l.system, "leaf-12.lab") &&
	       !strcmp(l.port_desc, "uplink to rack 12"),
	       "a switch's frame: chassis MAC, port name, system name, "
	       "description (%s, %s, %s)", l.chassis, l.port, l.system);

	v6[16] = 1;
	start(&f);
	id(&f, 1, 5, v4, sizeof(v4));
	id(&f, 2, 4, v6, sizeof(v6));
	tlv(&f, 3, ttl, sizeof(ttl));
	tap_ok(lldp_parse(&l, f.b, f.len) == 0 &&
	       !strcmp(l.chassis, "10.0.3.2") && !strcmp(l.port, "fe80::1") &&
	       !l.system[0],
	       "network address subtypes as addresses, no End TLV at the "
	       "frame's end (%s, %s)", l.chassis, l.port);

	start(&f);
	id(&f, 1, 7, "sw\x01\xff", 4);
	id(&f, 2, 3, mac, sizeof(mac));
	tlv(&f, 3, ttl, sizeof(ttl));
	tlv(&f, 127, "\x00\x12\x0f\x01\x03\x6c\x00\x00\x10", 9);
	tlv(&f, 0, "", 0);
	tap_ok(lldp_parse(&l, f.b, f.len) == 0 && !strcmp(l.chassis, "sw??") &&
	       !strcmp(l.port, "00:1b:21:aa:bb:cc"),
	       "a locally assigned chassis id kept printable, a MAC port id, "
	       "an organizational TLV passed by");
}

static void test_bad(void)
{
	struct frame f;
	struct lldp l;
	size_t n;
	int ret;

	usual(&f);
	f.b[13] = 0x00;
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "another EtherType: refused");

	start(&f);
	id(&f, 2, 5, "Ethernet1/7", 11);
	id(&f, 1, 4, mac, sizeof(mac));
	tlv(&f, 3, ttl, sizeof(ttl));
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "port id before chassis id: refused");

	start(&f);
	id(&f, 1, 4, mac, sizeof(mac));
	id(&f, 2, 5, "Ethernet1/7", 11);
	tlv(&f, 0, "", 0);
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "no TTL before the End: refused");

	start(&f);
	id(&f, 1, 4, mac, sizeof(mac));
	id(&f, 2, 5, "Ethernet1/7", 11);
	tlv(&f, 3, ttl, 1);
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "a TTL of one byte: refused");

	start(&f);
	tlv(&f, 1, "\x04", 1);
	id(&f, 2, 5, "x", 1);
	tlv(&f, 3, ttl, sizeof(ttl));
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "a chassis id with no id after its subtype: refused");

	/* Whole TLVs after the TTL are a frame; a cut inside one is not. */
	usual(&f);
	for (n = 0; n <= f.len; n++) {
		unsigned char *cut = malloc(n ? n : 1);
		int whole = n == whole_at[0] || n == whole_at[1] ||
			    n == whole_at[2] || n == f.len;

		memcpy(cut, f.b, n);
		/* ASan: a read past n is a crash, not a pass. */
		ret = lldp_parse(&l, cut, n);
		free(cut);
		if ((ret == 0) != whole)
			break;
	}
	tap_ok(n == f.len + 1, "every cut of a frame: taken after a whole "
	       "TLV past the TTL, else refused, read within its bytes "
	       "(wrong at %zu of %zu)", n, f.len);

	usual(&f);
	f.b[14 + 2 + 7 + 1] = 0xff;	/* the port id's length */
	tap_ok(lldp_parse(&l, f.b, f.len) == -EINVAL,
	       "a TLV longer than the frame: refused");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_good);
	TAP_RUN(test_bad);
	return tap_done();
}
