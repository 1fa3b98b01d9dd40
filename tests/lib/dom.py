"""A page as chromium rendered it (--dump-dom), as a small tree to assert
on: dom.load(path) gives its root; node.all(tag, cls) its descendants of
that tag and class, in document order; node.one(...) the only one;
node.text() its text."""
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children = []

    @property
    def cls(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text()
                       for c in self.children)

    def all(self, tag=None, cls=None):
        for c in self.children:
            if isinstance(c, str):
                continue
            if (tag is None or c.tag == tag) and (cls is None or cls in c.cls):
                yield c
            yield from c.all(tag, cls)

    def one(self, tag=None, cls=None):
        found = list(self.all(tag, cls))
        assert len(found) == 1, (tag, cls, len(found))
        return found[0]


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#document", [], None)

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n.parent is not None and n.tag != tag:
            n = n.parent
        if n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def load(path):
    t = _Tree()
    with open(path, encoding="utf-8") as f:
        t.feed(f.read())
    t.close()
    return t.root
