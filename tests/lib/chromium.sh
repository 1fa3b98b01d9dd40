# chromium.sh: a page as a person sees it, rendered by Debian's headless
# chromium; the tests assert on the DOM it ends with (tests/lib/dom.py).
#	have_chromium			(else: test_skip says why, returns 1)
#	render PAGE OUT [WIDTH]		(the rendered DOM of file PAGE, to OUT;
#					 in a window WIDTH px wide)

CHROMIUM=/usr/bin/chromium

have_chromium () {
	[ -x "$CHROMIUM" ] && return 0
	test_skip "no $CHROMIUM (scripts/deps.list installs it)"
	return 1
}

# The timeout only ends a chromium that hangs: a loaded machine can take
# a minute to start one.
render () {
	timeout 600 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TEST_TMP/chrome" \
		${3:+--window-size="$3,1000"} \
		--dump-dom "file://$1" >"$2" 2>"$TEST_TMP/chrome.err" || {
		tail -5 "$TEST_TMP/chrome.err"
		return 1
	}
}
