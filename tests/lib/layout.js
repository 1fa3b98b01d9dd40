// layout.js: what tests/host/pages.t asks of a page as chromium laid it
// out (DOM and computed styles, not pixels), written into the page as
// <pre id="layout-check">, a line a fault: an element wider than its
// container (one that scrolls is a container), the page wider than the
// window, text under 11 px, a small multiple's caption wrapped, texts
// of one plot that overlap.
(function () {
	var out = [];
	function name(e) {
		var s = e.tagName.toLowerCase();
		if (e.id)
			s += "#" + e.id;
		if (e.getAttribute("class"))
			s += "." + e.getAttribute("class").split(" ").join(".");
		var t = (e.textContent || "").trim().slice(0, 40);
		return s + (t ? " \"" + t + "\"" : "");
	}
	function scrolls(e) {
		var o = getComputedStyle(e).overflowX;
		return o === "auto" || o === "scroll" || o === "hidden";
	}
	var all = document.body.querySelectorAll("*");
	for (var i = 0; i < all.length; i++) {
		var e = all[i], p = e.parentElement;
		var cs = getComputedStyle(e);
		if (cs.display === "none" || e.closest("details:not([open]) > :not(summary)"))
			continue;
		var own = false;
		for (var c = e.firstChild; c; c = c.nextSibling)
			if (c.nodeType === 3 && c.data.trim())
				own = true;
		if (own && parseFloat(cs.fontSize) < 11)
			out.push("small " + cs.fontSize + " " + name(e));
		if (!p || (p.closest("svg") && p.tagName.toLowerCase() !== "svg" ) ||
		    p.tagName.toLowerCase() === "svg")
			continue;
		var r = e.getBoundingClientRect(), q = p.getBoundingClientRect();
		if (!r.width || scrolls(p))
			continue;
		if (r.right > q.right + 1 || r.left < q.left - 1)
			out.push("wide " + Math.round(r.left) + "-" +
				 Math.round(r.right) + " in " + Math.round(q.left) +
				 "-" + Math.round(q.right) + " " + name(e) +
				 " in " + name(p).slice(0, 30));
	}
	// A small multiple's caption: a line each, never wrapped into runs.
	var cells = document.querySelectorAll(".cell");
	for (var k = 0; k < cells.length; k++) {
		var w = document.createTreeWalker(cells[k], NodeFilter.SHOW_TEXT);
		for (var t = w.nextNode(); t; t = w.nextNode()) {
			if (!t.data.trim() || t.parentElement.closest("svg"))
				continue;
			var rg = document.createRange();
			rg.selectNodeContents(t);
			var lines = {};
			var rs = rg.getClientRects();
			for (var j = 0; j < rs.length; j++)
				if (rs[j].width)
					lines[Math.round(rs[j].top)] = 1;
			if (Object.keys(lines).length > 1)
				out.push("wraps \"" + t.data.trim() + "\" in " +
					 name(cells[k]).slice(0, 30));
		}
	}
	// Texts of one plot that run into each other read as neither.
	var svgs = document.querySelectorAll("svg");
	for (var v = 0; v < svgs.length; v++) {
		var ts = svgs[v].querySelectorAll("text");
		for (var a = 0; a < ts.length; a++)
			for (var b = a + 1; b < ts.length; b++) {
				var x = ts[a].getBoundingClientRect();
				var y = ts[b].getBoundingClientRect();
				if (x.left < y.right - 1 && y.left < x.right - 1 &&
				    x.top < y.bottom - 1 && y.top < x.bottom - 1)
					out.push("overlap \"" + ts[a].textContent +
						 "\" \"" + ts[b].textContent + "\"");
			}
	}
	var d = document.documentElement;
	if (d.scrollWidth > d.clientWidth)
		out.push("page " + d.scrollWidth + " px in a window of " +
			 d.clientWidth);
	var pre = document.createElement("pre");
	pre.id = "layout-check";
	pre.textContent = out.join("\n");
	document.body.appendChild(pre);
})();
