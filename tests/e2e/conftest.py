"""Browser tests: Debian's chromium driven headless by Playwright, against a real HTTP server over tiny
lexicons built in tmp. Skipped when /usr/bin/chromium (or $CHROMIUM) or Playwright is missing;
`make e2e` / `make test` install chromium first when they can.

Screenshots go to $E2E_ARTIFACTS (make e2e: ./screenshots) or else to a pytest tmp directory.

The pages run under a Content-Security-Policy without 'unsafe-eval' (lexicon_service/http/security.py):
give wait_for_function a function, `() => ...`; Playwright evaluates a bare expression with eval, which
the policy refuses. A page that breaks the policy fails its test (the `page` fixture)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
BUILD = str(Path(sys.executable).parent / "lexicon-build")
WORDS = {
    "pl-scrabble": ["kot", "koty", "żółw", "żółwie", "pies", "psy", "dar", "ok"],
    "cs-scrabble": ["kočka", "kočky", "pes", "psi", "žluťoučký", "kůň"],
    "cs-kriskros": ["chata", "chaty", "kočka", "ach", "cha", "pes", "dopravník", "moucha", "les"],
}
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    return sync_playwright


def pytest_collection_modifyitems(config, items):
    reason = None
    if not os.path.exists(CHROMIUM):
        reason = f"no chromium at {CHROMIUM} (make e2e installs it)"
    elif _playwright() is None:
        reason = "playwright is not installed (pip install -e '.[dev]')"
    if reason:
        for item in items:
            if "/e2e/" in str(item.fspath):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="package")
def artifacts(tmp_path_factory) -> Path:
    directory = Path(os.environ["E2E_ARTIFACTS"]) if os.environ.get("E2E_ARTIFACTS") else \
        tmp_path_factory.mktemp("e2e-artifacts")
    directory.mkdir(parents=True, exist_ok=True)
    print(f"\nbrowser screenshots: {directory}")
    return directory


@pytest.fixture(scope="package")
def serve_pages():
    """`serve_pages(directory)`: the URL of an HTTP server (API and pages) over the lexicons of `directory`,
    stopped at the end of the session."""
    from lexicon_service.http import HttpServer, create_app
    from lexicon_service.core.registry import LexiconRegistry

    started = []

    def serve(directory: Path) -> str:
        registry = LexiconRegistry(directory)
        registry.reload()
        web = HttpServer(create_app(registry), "localhost:0").start()
        started.append((web, registry))
        return web.url

    yield serve
    for web, registry in started:
        web.stop()
        registry.close()


@pytest.fixture(scope="package")
def web_url(tmp_path_factory, serve_pages):
    directory = tmp_path_factory.mktemp("e2e-lexicons") / "lex"
    directory.mkdir()
    for name, words in WORDS.items():
        src = directory.parent / f"{name}.txt"
        src.write_text("\n".join(words) + "\n", encoding="utf-8")
        subprocess.run([BUILD, "--rules", name, "--words", str(src), "-o", str(directory / f"{name}.lex"),
                        "--name", name, "--quiet"], check=True, capture_output=True)
    return serve_pages(directory)


@pytest.fixture(scope="package")
def browser_context(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")  # a fresh user-data-dir
    with _playwright()() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True,
            viewport={"width": 1280, "height": 800}, locale="en-GB", accept_downloads=True)
        context.set_default_timeout(15_000)
        yield context
        context.close()
    # Playwright's loop ran downloads and file writes on its default executor (threads asyncio_N), and
    # closing the loop does not wait for them: a build the next test file forks would see them running
    # (ForkWithThreadsWarning, seen once in CI)
    for thread in threading.enumerate():
        if thread.name.startswith("asyncio_"):
            thread.join(5)


@pytest.fixture
def page(browser_context):
    page = browser_context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text else None)
    yield page
    page.close()
    assert not errors, errors
