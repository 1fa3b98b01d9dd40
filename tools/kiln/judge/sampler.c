/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals sampled during a burn (see
 * sampler.h). The thread takes whole samples (smartctl's JSON of every
 * drive at once, then sysfs) and hands each over under a lock; it never
 * touches the record, so a thread held up by a hung drive costs the burn
 * nothing but that sample. The main thread reads the kernel's log and
 * folds each sample into the record.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sense/edacslot.h"
#include "sense/health.h"
#include "sense/raidscan.h"
#include "judge/linkerr.h"
#include "judge/sampler.h"
#include "judge/smarttest.h"
#include "base/subproc.h"
#include "base/timing.h"

/* How long smartctl may take, for every drive at once. */
#define SAMPLER_SMART_MS 30000
/* ...and to list the drives behind RAID controllers. */
#define SAMPLER_SCAN_MS 30000
/* Drives hidden behind RAID controllers, at most. */
#define SAMPLER_HIDDEN 256
/* DIMM slots (SMBIOS type 17) matched to EDAC's labels, at most. */
#define SAMPLER_DIMMS 128

/* A drive to ask: a disk of the record, or one a RAID card hides. */
struct probe {
	char dev[PATH_MAX];		/* what smartctl opens; "": none */
	char type[24];			/* smartctl -d TYPE, or "" */
	char devpath[SENSORS_PATH];	/* for its hwmon; "" none */
	pid_t stuck;			/* a smartctl that would not die */
	uint64_t stuck_ns;
};

struct sampler_shared {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;			/* the thread and the main thread */
	int stop;			/* the run is over */
	uint64_t want, served;		/* samples asked for; served */
	uint64_t gen;			/* samples made */
	struct vitals_sample *ready;	/* the newest, not yet taken */
	/* Set before the thread starts, read-only after. */
	char sysroot[PATH_MAX];
	char procroot[PATH_MAX];	/* /proc, or beside a test's sys */
	char smartctl[PATH_MAX];	/* "": no SMART */
	struct smbios_dimm *dimms;	/* the BIOS's slots, for EDAC's */
	int ndimms;
	uint64_t period_ns, t0;
	int n, nhidden;
	struct probe *probes;		/* n, then nhidden; the thread's */
};

static void sample_free(struct vitals_sample *s)
{
	if (!s)
		return;
	free(s->disk);
	sensors_free(&s->sensors);
	cpu_free(&s->cpu);
	sasphy_free(&s->phys);
	free(s);
}

static void drop(struct sampler_shared *sh)
{
	int last;

	pthread_mutex_lock(&sh->lock);
	last = --sh->refs == 0;
	pthread_mutex_unlock(&sh->lock);
	if (!last)
		return;
	sample_free(sh->ready);
	free(sh->probes);
	free(sh->dimms);
	pthread_cond_destroy(&sh->cond);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

/* What one smartctl said of its drive. */
static void read_answer(const struct subproc_job *j, struct vitals_reading *rd)
{
	size_t n;

	if (!j->done) {
		snprintf(rd->why, sizeof(rd->why), "smartctl did not answer "
			 "in %u s", SAMPLER_SMART_MS / 1000);
		return;
	}
	if (smartjson_parse(j->out ? j->out : "", j->len, &rd->sj) < 0) {
		n = j->out ? strcspn(j->out, "\n") : 0;
		snprintf(rd->why, sizeof(rd->why), "smartctl said: %.*s",
			 (int)(n > 120 ? 120 : n), n ? j->out : "nothing");
		return;
	}
	rd->answered = 1;
	snprintf(rd->why, sizeof(rd->why), "%s", rd->sj.message);
}

/* smartctl -j -a of every drive, side by side. */
static void ask_smart(struct sampler_shared *sh, struct vitals_sample *s,
		      uint64_t now)
{
	int total = sh->n + sh->nhidden, i;
	struct subproc_job *jobs = calloc((size_t)total + 1, sizeof(*jobs));
	char *(*argv)[11] = calloc((size_t)total + 1, sizeof(*argv));

	for (i = 0; jobs && argv && i < total; i++) {
		struct probe *p = &sh->probes[i];
		struct vitals_reading *rd = &s->disk[i];
		int a = 0;

		if (!p->dev[0])
			continue;
		rd->asked = 1;
		/* One smartctl a drive: a hung one is not asked again. */
		if (p->stuck && !subproc_reap(p->stuck)) {
			snprintf(rd->why, sizeof(rd->why), "smartctl has hung "
				 "on it for %llu s", (unsigned long long)
				 ((now - p->stuck_ns) / TIMING_SEC));
			continue;
		}
		p->stuck = 0;
		argv[i][a++] = sh->smartctl;
		argv[i][a++] = "-j";
		argv[i][a++] = "-a";
		/* The drive's own end of its link (linkerr.h). */
		argv[i][a++] = "-l";
		argv[i][a++] = "sataphy";
		argv[i][a++] = "-l";
		argv[i][a++] = "sasphy";
		if (p->type[0]) {
			argv[i][a++] = "-d";
			argv[i][a++] = p->type;
		}
		argv[i][a++] = p->dev;
		jobs[i].argv = argv[i];
		jobs[i].err = SUBPROC_STDERR_NULL;
	}
	if (jobs && argv)
		subproc_many(jobs, total, SAMPLER_SMART_MS);
	for (i = 0; jobs && argv && i < total; i++) {
		if (jobs[i].argv)
			read_answer(&jobs[i], &s->disk[i]);
		if (jobs[i].stuck) {
			sh->probes[i].stuck = jobs[i].stuck;
			sh->probes[i].stuck_ns = now;
		}
		free(jobs[i].out);
	}
	free(jobs);
	free(argv);
}

static struct vitals_sample *take_sample(struct sampler_shared *sh)
{
	struct vitals_sample *s = calloc(1, sizeof(*s));
	int total = sh->n + sh->nhidden, i;
	uint64_t now = timing_now_ns();

	if (!s)
		return NULL;
	s->disk = calloc((size_t)total + 1, sizeof(*s->disk));
	if (!s->disk) {
		free(s);
		return NULL;
	}
	s->t = (uint32_t)((now - sh->t0) / TIMING_SEC);
	s->n = sh->n;
	s->nhidden = sh->nhidden;
	s->hidden = s->disk + sh->n;
	if (sh->smartctl[0])
		ask_smart(sh, s, now);
	s->have_sensors = sensors_read(sh->sysroot, &s->sensors) == 0;
	edacslot_match(&s->sensors, sh->dimms, sh->ndimms);
	s->have_cpu = cpu_read(sh->sysroot, sh->procroot, &s->cpu) == 0;
	sasphy_read(sh->sysroot, &s->phys);
	for (i = 0; i < total; i++) {
		const struct sensors_temp *t = sh->probes[i].devpath[0] ?
			sensors_disk_temp(&s->sensors, sh->probes[i].devpath) :
			NULL;

		s->disk[i].hw_temp = t ? t->input : SENSORS_NONE;
		s->disk[i].hw_max = t ? t->max : SENSORS_NONE;
		s->disk[i].hw_crit = t ? t->crit : SENSORS_NONE;
		if (t)
			s->disk[i].asked = 1;
	}
	return s;
}

static void *sampler_run(void *arg)
{
	struct sampler_shared *sh = arg;
	uint64_t next = 0;

	pthread_mutex_lock(&sh->lock);
	for (;;) {
		struct vitals_sample *s;
		uint64_t asked;

		while (!sh->stop && sh->served == sh->want &&
		       (!sh->period_ns || timing_now_ns() < next)) {
			struct timespec t = timing_ts_in(TIMING_SEC);

			pthread_cond_timedwait(&sh->cond, &sh->lock, &t);
		}
		if (sh->stop)
			break;
		asked = sh->want;
		pthread_mutex_unlock(&sh->lock);
		next = timing_now_ns() + sh->period_ns;
		s = take_sample(sh);
		pthread_mutex_lock(&sh->lock);
		if (s) {
			sample_free(sh->ready);
			sh->ready = s;
			sh->gen++;
		}
		sh->served = asked;
		pthread_cond_broadcast(&sh->cond);
	}
	pthread_mutex_unlock(&sh->lock);
	drop(sh);
	return NULL;
}

/* The newest sample folded into the record, if there is one. */
static void fold_ready(struct sampler *sp)
{
	struct vitals_sample *s;
	int i;

	pthread_mutex_lock(&sp->sh->lock);
	s = sp->sh->ready;
	sp->sh->ready = NULL;
	pthread_mutex_unlock(&sp->sh->lock);
	if (!s)
		return;
	vitals_fold(sp->r, s);
	linkerr_fold_phys(sp->r, &s->phys);
	for (i = 0; i < s->n && i < sp->r->n; i++)
		if (s->disk[i].answered &&
		    linkerr_fold_drive(&sp->r->disks[i], &s->disk[i].sj) &&
		    !sp->lerr_lost++)
			record_note(sp->r, "%s: its drive's link error counters "
				    "are not kept: no room in the record",
				    sp->r->disks[i].label);
	sp->folded++;
	sample_free(s);
}

/*
 * Asks for a sample taken from now on and waits for it at most bound_ns:
 * 0, or -ETIMEDOUT (the thread is held up; the burn goes on without it).
 */
static int sample_now(struct sampler *sp, uint64_t bound_ns)
{
	struct sampler_shared *sh = sp->sh;
	struct timespec end = timing_ts_in(bound_ns);
	uint64_t want;
	int ret = 0;

	pthread_mutex_lock(&sh->lock);
	want = ++sh->want;
	pthread_cond_broadcast(&sh->cond);
	while (sh->served < want && ret != ETIMEDOUT)
		ret = pthread_cond_timedwait(&sh->cond, &sh->lock, &end);
	pthread_mutex_unlock(&sh->lock);
	fold_ready(sp);
	return sh->served < want ? -ETIMEDOUT : 0;
}

/* smartctl --scan-open: the drives RAID controllers hide, as probes. */
static void find_hidden(struct sampler *sp, struct sampler_shared *sh)
{
	struct raidscan_drive *found = calloc(SAMPLER_HIDDEN,
					      sizeof(*found));
	struct record *r = sp->r;
	int n, i;

	if (!found)
		return;
	n = raidscan_find(sh->smartctl, sh->sysroot, SAMPLER_SCAN_MS, found,
			  SAMPLER_HIDDEN);
	if (n == -ETIMEDOUT)
		record_note(r, "smartctl --scan-open did not answer in %u s: "
			    "drives behind RAID controllers are not sampled",
			    SAMPLER_SCAN_MS / 1000);
	for (i = 0; i < n && i < SAMPLER_HIDDEN; i++) {
		struct vitals_hidden *h = vitals_add_hidden(&r->sig);
		struct probe *p;

		if (!h)
			break;
		snprintf(h->controller, sizeof(h->controller), "%s",
			 found[i].controller);
		snprintf(h->dev, sizeof(h->dev), "%s", found[i].dev);
		snprintf(h->type, sizeof(h->type), "%s", found[i].type);
		snprintf(h->serial, sizeof(h->serial), "%s", found[i].serial);
		p = &sh->probes[sh->n + sh->nhidden++];
		snprintf(p->dev, sizeof(p->dev), "%s", found[i].dev);
		snprintf(p->type, sizeof(p->type), "%s", found[i].type);
	}
	free(found);
}

/* Each disk of the record that is a drive: its probe and log names. */
static int find_disks(struct sampler *sp, struct sampler_shared *sh)
{
	struct record *r = sp->r;
	int i, k;

	sp->kd = calloc((size_t)r->n + 1, sizeof(*sp->kd));
	sp->kd_disk = calloc((size_t)r->n + 1, sizeof(*sp->kd_disk));
	if (!sp->kd || !sp->kd_disk)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];
		struct kmsgwatch_disk *kd = &sp->kd[sp->nkd];
		struct probe *p = &sh->probes[i];

		/* Loop devices and files have no SMART, no log of their own. */
		if (d->failed[0] || d->t.kind != TARGET_BLOCK ||
		    d->t.id.backing[0] || !d->t.id.name[0])
			continue;
		d->sig.rotational = d->t.id.rotational;
		if (sh->smartctl[0])
			snprintf(p->dev, sizeof(p->dev), "%s", d->path);
		if (kmsgwatch_disk_read(sh->sysroot, d->t.id.name, kd,
				       p->devpath, sizeof(p->devpath)))
			continue;
		for (k = 0; k < KMSGWATCH_PCI_PATH && kd->pci[k][0]; k++)
			snprintf(d->sig.pci[k], sizeof(d->sig.pci[k]), "%s",
				 kd->pci[k]);
		d->sig.npci = k;
		sp->kd_disk[sp->nkd++] = i;
	}
	return 0;
}

static int start_thread(struct sampler_shared *sh)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t t;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The thread takes no signals: the main thread handles them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	sh->refs = 2;
	ret = -pthread_create(&t, &attr, sampler_run, sh);
	if (ret)
		sh->refs = 1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return ret;
}

static struct sampler_shared *shared_new(const struct record *r,
					 const struct sampler_env *env)
{
	struct sampler_shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	sh->probes = calloc((size_t)r->n + SAMPLER_HIDDEN + 1,
			    sizeof(*sh->probes));
	if (!sh->probes) {
		free(sh);
		return NULL;
	}
	pthread_mutex_init(&sh->lock, NULL);
	timing_cond_init(&sh->cond);
	sh->refs = 1;
	snprintf(sh->sysroot, sizeof(sh->sysroot), "%s", env->sysroot);
	/* A test's tree has its proc beside its sys, as discover's has. */
	if (strcmp(env->sysroot, "/sys"))
		snprintf(sh->procroot, sizeof(sh->procroot), "%s/../proc",
			 env->sysroot);
	else
		snprintf(sh->procroot, sizeof(sh->procroot), "/proc");
	sh->dimms = calloc(SAMPLER_DIMMS, sizeof(*sh->dimms));
	if (sh->dimms)
		sh->ndimms = smbios_dimms_read(env->sysroot, sh->dimms,
					       SAMPLER_DIMMS);
	if (sh->ndimms > SAMPLER_DIMMS)
		sh->ndimms = SAMPLER_DIMMS;
	if (env->smartctl && access(env->smartctl, X_OK) == 0)
		snprintf(sh->smartctl, sizeof(sh->smartctl), "%s",
			 env->smartctl);
	sh->period_ns = r->s->sensors * TIMING_SEC;
	sh->n = r->n;
	sh->t0 = timing_now_ns();
	return sh;
}

/* The kernel's log from now on; a host that will not show it is said. */
static void open_log(struct sampler *sp, const char *path)
{
	struct vitals_machine *m = &sp->r->sig;
	int ret;

	if (!path) {
		snprintf(m->kmsg_why, sizeof(m->kmsg_why), "not asked for");
		return;
	}
	ret = kmsgwatch_init(&sp->kw, sp->kd, sp->nkd);
	if (!ret && (ret = kmsgwatch_open(&sp->kw, path)))
		kmsgwatch_free(&sp->kw);
	if (ret) {
		snprintf(m->kmsg_why, sizeof(m->kmsg_why), "%s: %s", path,
			 strerror(-ret));
		return;
	}
	sp->have_kw = 1;
	m->kmsg = 1;
}

/* The SAS phys and which disk's path each is on, before any sample. */
static void start_links(struct record *r, const char *sysroot)
{
	struct sasphy_set set;

	if (sasphy_read(sysroot, &set) || linkerr_start(r, &set, sysroot))
		record_note(r, "link error counters are not read: out of "
			    "memory");
	sasphy_free(&set);
}

int sampler_start(struct sampler *sp, struct record *r,
		  const struct sampler_env *env)
{
	struct sampler_env machine = {
		.sysroot = r->s->sysfs_root ? r->s->sysfs_root : "/sys",
		.smartctl = HEALTH_SMARTCTL,
		.kmsg = "/dev/kmsg",
	};
	struct sampler_shared *sh;
	int i, ret;

	if (!env)
		env = &machine;
	memset(sp, 0, sizeof(*sp));
	sp->r = r;
	r->sig.period = r->s->sensors;
	sh = shared_new(r, env);
	if (!sh || find_disks(sp, sh)) {
		if (sh)
			drop(sh);
		record_note(r, "the machine's signals are not sampled: out of "
			    "memory");
		return -ENOMEM;
	}
	/* A burn of files and loop devices has no drive to look behind. */
	for (i = 0; i < r->n && !sh->probes[i].dev[0]; i++)
		;
	if (i < r->n)
		find_hidden(sp, sh);
	start_links(r, env->sysroot);
	open_log(sp, env->kmsg);
	ret = start_thread(sh);
	if (ret) {
		drop(sh);
		record_note(r, "the machine's signals are not sampled: %s",
			    strerror(-ret));
		return ret;
	}
	sp->sh = sh;
	/* The first sample is the start: before any I/O. */
	if (sample_now(sp, (SAMPLER_SMART_MS + 10000) * 1000000ull))
		record_note(r, "the first sample of the machine's signals "
			    "took longer than %u s", SAMPLER_SMART_MS / 1000 +
			    10);
	sampler_tick(sp);
	return 0;
}

void sampler_tick(struct sampler *sp)
{
	struct record *r = sp->r;
	int i;

	if (sp->have_kw) {
		kmsgwatch_read(&sp->kw);
		if (sp->kw.lines != sp->lines) {
			sp->lines = sp->kw.lines;
			for (i = 0; i < sp->nkd; i++)
				vitals_fold_kmsg(&r->disks[sp->kd_disk[i]].sig,
						 &sp->kw.tally[i]);
			vitals_fold_kmsg_other(&r->sig, &sp->kw);
		}
	}
	if (sp->sh)
		fold_ready(sp);
}

static void tick(void *arg)
{
	sampler_tick(arg);
}

/* Every drive smartctl reaches, tested or hidden, self-tested at once. */
static void selftests(struct sampler *sp, FILE *con,
		      volatile sig_atomic_t *stop)
{
	struct record *r = sp->r;
	struct sampler_shared *sh = sp->sh;
	int total = sh->n + sh->nhidden, i, n = 0;
	struct smarttest_drive *drv = calloc((size_t)total + 1, sizeof(*drv));

	if (!drv)
		return;
	for (i = 0; i < total; i++) {
		const struct probe *p = &sh->probes[i];
		struct smarttest_drive *dv = &drv[n];

		if (!p->dev[0])
			continue;
		dv->dev = p->dev;
		dv->type = p->type;
		if (i < sh->n) {
			dv->d = &r->disks[i].sig;
			snprintf(dv->label, sizeof(dv->label), "%s",
				 r->disks[i].label);
		} else {
			dv->d = &r->sig.hidden[i - sh->n].d;
			snprintf(dv->label, sizeof(dv->label), "%s behind %s",
				 p->type, r->sig.hidden[i - sh->n].controller);
		}
		n++;
	}
	smarttest_run(sh->smartctl, r->s->selftest, drv, n, con,
		      r->s->interval, stop, tick, sp);
	free(drv);
}

void sampler_finish(struct sampler *sp, FILE *con,
		    volatile sig_atomic_t *stop)
{
	struct record *r = sp->r;
	struct sampler_shared *sh = sp->sh;

	if (!sh)
		return;
	if (r->s->selftest != SETTINGS_SELFTEST_NONE && !*stop &&
	    sh->smartctl[0])
		selftests(sp, con, stop);
	/* The last sample is the end: after the burn and any self-test. */
	if (sample_now(sp, (SAMPLER_SMART_MS + 10000) * 1000000ull))
		record_note(r, "the last sample of the machine's signals took "
			    "longer than %u s", SAMPLER_SMART_MS / 1000 + 10);
	sampler_tick(sp);
	pthread_mutex_lock(&sh->lock);
	sh->stop = 1;
	pthread_cond_broadcast(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	drop(sh);
	sp->sh = NULL;
}

void sampler_free(struct sampler *sp)
{
	if (sp->sh) {
		pthread_mutex_lock(&sp->sh->lock);
		sp->sh->stop = 1;
		pthread_cond_broadcast(&sp->sh->cond);
		pthread_mutex_unlock(&sp->sh->lock);
		drop(sp->sh);
	}
	if (sp->have_kw)
		kmsgwatch_free(&sp->kw);
	free(sp->kd);
	free(sp->kd_disk);
	memset(sp, 0, sizeof(*sp));
}
