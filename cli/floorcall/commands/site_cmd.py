"""`floor site …`: build the static rulebook site, or serve it on this machine for a quick look."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from floorcall.commands.support import HELP_OPTIONS, command, epilog
from floorcall.core.errors import FloorError

site_app = typer.Typer(help="Build or serve the static rulebook site.", no_args_is_help=True, context_settings=HELP_OPTIONS, epilog=epilog("site"))

DEFAULT_OUT = "_site"  # under the content root; ignored by git
DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"  # never another interface: this is a preview, not a server


def _root() -> Path:
    from floorcall.commands.support import content_root

    return content_root()


def _out(out: Optional[Path], root: Path) -> Path:
    if out is None:
        # In a checkout the site goes beside the content (ignored by git); never into an installed package.
        installed = root.name == "_data" and (root.parent / "__init__.py").exists()
        out = (Path.cwd() if installed else root) / DEFAULT_OUT
    return out.expanduser().resolve()


def _build(root: Path, out_dir: Path, edition: str | None = None):
    from floorcall.commands.editions_cmd import in_edition
    from floorcall.content import corpus as corpus_module
    from floorcall.publish.sitegen import build_site

    data = corpus_module.load(root)
    corpus_module.warn_if_skipped(data)
    return build_site(in_edition(data, edition), out_dir, root)


@command(site_app, "build")
def build(out: Optional[Path] = typer.Option(None, "--out", "-o", help=f"Output folder (default: {DEFAULT_OUT}/ in the checkout, else in the working folder)."),
          edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Cite rules in an imported edition's numbers, e.g. 2026.")):
    """Build the site into a folder that works from file:// and offline."""
    root = _root()
    report = _build(root, _out(out, root), edition)
    typer.echo(report.summary())
    if report.counts.get("full_text"):
        typer.echo(f"with the full words of {report.counts['full_text']} rule(s) from your own copy: "
                   "for this machine and your staff, not for publishing")
    typer.echo(f"open {report.out_dir / 'index.html'}  (or: floor site serve)")


@command(site_app, "serve")
def serve(
    port: int = typer.Option(DEFAULT_PORT, "--port", "-p", min=0, max=65535, help="Port on 127.0.0.1 (0: any free port)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help=f"Site folder (default: {DEFAULT_OUT}/ in the checkout, else in the working folder)."),
    no_build: bool = typer.Option(False, "--no-build", help="Serve the folder as it is, without rebuilding first."),
):
    """Build the site, then serve it on 127.0.0.1 for a quick look (Ctrl-C stops)."""
    import functools
    import http.server

    root = _root()
    out_dir = _out(out, root)
    if no_build:
        if not (out_dir / "index.html").exists():
            raise FloorError(f"no site in {out_dir} — run `floor site build` first, or drop --no-build")
    else:
        typer.echo(_build(root, out_dir).summary())

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".webmanifest": "application/manifest+json", ".js": "text/javascript"}

        def log_message(self, format, *args):  # one quiet line per request, on stderr
            typer.echo(f"{self.address_string()} {format % args}", err=True)

    handler = functools.partial(Handler, directory=str(out_dir))
    try:
        server = http.server.ThreadingHTTPServer((LOOPBACK, port), handler)
    except OSError as exc:
        raise FloorError(f"cannot listen on {LOOPBACK}:{port} ({exc.strerror}) — try --port 0 for any free port") from None
    typer.echo(f"serving {out_dir} at http://{LOOPBACK}:{server.server_address[1]}/ — Ctrl-C to stop")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        typer.echo("stopped")
    finally:
        server.server_close()
