"""The club's pages: ``/club`` (your clubs and level), profiles and statistics, clubs, invites, the Collection.

Every form posts the CSRF token (:func:`ohhell.web.accounts.routes.form_fields`); clubs need an account, while a
guest's statistics and XP are kept under the guest's player key and become the account's on signing up.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ohhell.club import TEMPLATES, collection
from ohhell.club.rating import club_ratings, places
from ohhell.club.results import PersonResult
from ohhell.club.stats import chart_svg, opponents_title, people_levels, statistics, xp_line
from ohhell.club.store import ClubError, ClubStore
from ohhell.club.xp import level_of, xp_for_level
from ohhell.web.accounts.routes import form_fields, signed_in
from ohhell.web.accounts.store import DELETED_PLAYER, Account, AccountStore
from ohhell.web.events import ClubEvents, NoEvents
from ohhell.web.house_rules import PRESET_TITLES
from ohhell.web.pages import feature_templates

HERE: Final = Path(__file__).parent
SVG: Final = "image/svg+xml"
CACHED: Final = {"Cache-Control": "public, max-age=86400"}
RECENT_SERIES: Final = 20
NOT_SHOWN: Final = (
    "There is no statistics page to show here: no such player, or one who shows their statistics only to the"
    " members of their clubs."
)
"""The one answer to a profile one may not see, whether the account exists or not: it names nobody, so that ids
cannot be tried to list the accounts' names."""


def club_router(clubs: ClubStore, accounts: AccountStore, events: ClubEvents | None = None) -> APIRouter:
    """The club's routes over its store and the accounts; ``events`` lists a club's duplicate events."""
    club_events: ClubEvents = events if events is not None else NoEvents()
    router = APIRouter()
    templates = feature_templates(TEMPLATES)

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, template, context, status_code=status)

    def me(request: Request) -> Account | None:
        account: Account | None = request.state.account
        return account

    async def keys_of_request(request: Request) -> list[str]:
        account = me(request)
        if account is not None:
            return await accounts.keys_of(account.id)
        return [str(request.state.player)]

    async def club_or_404(club_id: int) -> Any:
        club = await clubs.club(club_id)
        if club is None:
            raise HTTPException(404, f"There is no club {club_id}.")
        return club

    async def admin_of(request: Request, club_id: int) -> Account:
        account = signed_in(request)
        if await clubs.role_of(club_id, account.id) != "admin":
            raise HTTPException(403, "Only the club's admins may do that.")
        return account

    async def names_of_keys(keys: set[str]) -> dict[str, str]:
        found = await accounts.accounts_of_keys(keys)
        return {key: found[key].name if key in found else DELETED_PLAYER for key in keys}

    # ----------------------------------------------------------------- home, profiles, statistics

    @router.get("/club", response_class=HTMLResponse)
    async def club_home(request: Request) -> HTMLResponse:
        keys = await keys_of_request(request)
        xp = await clubs.xp_of_keys(keys)
        account = me(request)
        mine = await clubs.clubs_of(account.id) if account is not None else []
        level = level_of(xp)
        return page(
            request,
            "club_home.html",
            me=account,
            xp=xp,
            level=level,
            next_xp=xp_for_level(level + 1),
            clubs=mine,
            error=None,
        )

    @router.post("/club/clubs", response_model=None)
    async def create_club(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        try:
            club = await clubs.create_club(fields.get("name", ""), account.id)
        except ClubError as exc:
            keys = await accounts.keys_of(account.id)
            xp = await clubs.xp_of_keys(keys)
            return page(
                request,
                "club_home.html",
                400,
                me=account,
                xp=xp,
                level=level_of(xp),
                next_xp=xp_for_level(level_of(xp) + 1),
                clubs=await clubs.clubs_of(account.id),
                error=str(exc),
            )
        return RedirectResponse(f"/club/clubs/{club.id}", status_code=303)

    async def stats_page(request: Request, who: str, keys: list[str], owner: Account | None) -> HTMLResponse:
        results = await clubs.results_of(keys)
        among_people = [r.game_id for r in results if r.opponents == "people"]
        tables = await clubs.results_of_games(among_people)
        history = await clubs.results_of({r.player_key for r in tables} - set(keys))
        stats = statistics(results, people_levels(results, [*tables, *history]))
        return page(
            request,
            "profile.html",
            who=who,
            owner=owner,
            stats=stats,
            results=list(reversed(results))[:RECENT_SERIES],
            chart=chart_svg(results),
            presets=PRESET_TITLES,
            opponent_title=opponents_title,
            own=owner is not None and me(request) is not None and me(request) == owner,
        )

    @router.get("/club/me", response_class=HTMLResponse, response_model=None)
    async def my_stats(request: Request) -> Response:
        account = me(request)
        if account is not None:
            return RedirectResponse(f"/club/players/{account.id}", status_code=303)
        return await stats_page(request, "You (guest)", [str(request.state.player)], None)

    @router.get("/club/players/{account_id}", response_class=HTMLResponse)
    async def profile(request: Request, account_id: int) -> HTMLResponse:
        owner = await accounts.account(account_id) if 1 <= account_id <= 2**31 - 1 else None
        viewer = me(request)
        allowed = owner is not None and (
            owner.public_profile
            or (viewer is not None and (viewer.id == owner.id or await clubs.shares_a_club(viewer.id, owner.id)))
        )
        if owner is None or not allowed:
            raise HTTPException(404, NOT_SHOWN)
        return await stats_page(request, owner.name, await accounts.keys_of(owner.id), owner)

    @router.get("/api/club/series/{game_id}")
    async def series_xp(request: Request, game_id: int) -> dict[str, Any]:
        """What the game page shows once a series is over: the XP it earned and the level now."""
        keys = await keys_of_request(request)
        results = await clubs.results_of(keys)
        mine = [r for r in results if r.game_id == game_id]
        if not mine:
            raise HTTPException(404, "The series' results are not stored (yet).")
        level = level_of(sum(r.xp for r in results))
        gained = mine[0].xp
        return {"xp": gained, "level": level, "text": xp_line(gained, level), "gave_up": mine[0].gave_up}

    # ----------------------------------------------------------------- clubs

    @router.get("/club/clubs/{club_id}", response_class=HTMLResponse)
    async def club_page(request: Request, club_id: int) -> HTMLResponse:
        club = await club_or_404(club_id)
        account = signed_in(request)
        role = await clubs.role_of(club_id, account.id)
        if role is None:
            raise HTTPException(403, "This club's page is for its members.")
        members = await clubs.members(club_id)
        member_accounts = {m.account_id: await accounts.account(m.account_id) for m in members}
        member_keys = {a.player_key: a for a in member_accounts.values() if a is not None}
        results = await clubs.club_results(club_id)
        keys = {r.player_key for r in results}
        owners = await accounts.accounts_of_keys(keys)
        identity = {key: acc.player_key for key, acc in owners.items()}
        names = await names_of_keys(keys | set(member_keys))
        ratings = club_ratings(results, identity)
        shown = [r.shown for r in ratings]
        wins: dict[str, int] = defaultdict(int)
        for r in results:
            if r.winner:
                wins[identity.get(r.player_key, r.player_key)] += 1
        series: dict[int, list[PersonResult]] = defaultdict(list)
        for r in results:
            series[r.game_id].append(r)
        recent = sorted(series.values(), key=lambda rows: rows[0].ended_at, reverse=True)[:RECENT_SERIES]
        return page(
            request,
            "club.html",
            club=club,
            role=role,
            me=account,
            members=[(m, member_accounts[m.account_id]) for m in members],
            leaderboard=list(zip(places(shown), ratings, strict=True)),
            names=names,
            wins=wins,
            recent=recent,
            invites=await clubs.invites(club_id) if role == "admin" else [],
            events=await club_events.events_of_club(club_id),
            presets=PRESET_TITLES,
            base_url=str(request.base_url).rstrip("/"),
            error=request.query_params.get("error"),
        )

    def back_to(club_id: int, error: str | None = None) -> RedirectResponse:
        suffix = "" if error is None else "?error=" + error.replace(" ", "+")
        return RedirectResponse(f"/club/clubs/{club_id}{suffix}", status_code=303)

    @router.post("/club/clubs/{club_id}/invites", response_model=None)
    async def new_invite(request: Request, club_id: int) -> Response:
        await form_fields(request)
        await admin_of(request, club_id)
        await clubs.new_invite(club_id)
        return back_to(club_id)

    @router.post("/club/clubs/{club_id}/invites/revoke", response_model=None)
    async def revoke_invite(request: Request, club_id: int) -> Response:
        fields = await form_fields(request)
        await admin_of(request, club_id)
        await clubs.revoke_invite(club_id, fields.get("code", ""))
        return back_to(club_id)

    @router.post("/club/clubs/{club_id}/members/{account_id}/remove", response_model=None)
    async def remove_member(request: Request, club_id: int, account_id: int) -> Response:
        await form_fields(request)
        await admin_of(request, club_id)
        try:
            await clubs.remove(club_id, account_id)
        except ClubError as exc:
            return back_to(club_id, str(exc))
        return back_to(club_id)

    @router.post("/club/clubs/{club_id}/members/{account_id}/role", response_model=None)
    async def set_role(request: Request, club_id: int, account_id: int) -> Response:
        fields = await form_fields(request)
        await admin_of(request, club_id)
        try:
            await clubs.set_role(club_id, account_id, fields.get("role", ""))
        except ClubError as exc:
            return back_to(club_id, str(exc))
        return back_to(club_id)

    @router.post("/club/clubs/{club_id}/settings", response_model=None)
    async def club_settings(request: Request, club_id: int) -> Response:
        fields = await form_fields(request)
        await admin_of(request, club_id)
        await clubs.set_allow_undo(club_id, fields.get("allow_undo") == "on")
        return back_to(club_id)

    @router.post("/club/clubs/{club_id}/leave", response_model=None)
    async def leave(request: Request, club_id: int) -> Response:
        await form_fields(request)
        account = signed_in(request)
        try:
            await clubs.remove(club_id, account.id)
        except ClubError as exc:
            return back_to(club_id, str(exc))
        return RedirectResponse("/club", status_code=303)

    @router.get("/club/join/{code}", response_class=HTMLResponse)
    async def join_page(request: Request, code: str) -> HTMLResponse:
        found = await clubs.invite(code)
        if found is None:
            raise HTTPException(404, "That invite link leads to no club.")
        club, live = found
        if not live:
            raise HTTPException(410, f"That invite link to {club.name} was withdrawn: ask an admin for a new one.")
        return page(request, "join.html", club=club, code=code, me=me(request))

    @router.post("/club/join/{code}", response_model=None)
    async def join(request: Request, code: str) -> Response:
        await form_fields(request)
        account = signed_in(request)
        found = await clubs.invite(code)
        if found is None or not found[1]:
            raise HTTPException(410, "That invite link was withdrawn: ask an admin for a new one.")
        await clubs.join(found[0].id, account.id)
        return RedirectResponse(f"/club/clubs/{found[0].id}", status_code=303)

    # ----------------------------------------------------------------- the Collection

    @router.get("/club/collection", response_class=HTMLResponse)
    async def collection_page(request: Request) -> HTMLResponse:
        keys = await keys_of_request(request)
        stats = statistics(await clubs.results_of(keys))
        return page(
            request,
            "collection.html",
            me=me(request),
            level=stats.level,
            backs=collection.BACKS,
            faces=collection.FACES,
            achievements={a.key: a for a in collection.ACHIEVEMENTS},
            have_backs=set(collection.backs_unlocked(stats.level)),
            have_faces=set(collection.faces_unlocked(stats.achievements)),
            done=request.query_params.get("done"),
        )

    @router.post("/club/collection", response_model=None)
    async def choose(request: Request) -> Response:
        fields = await form_fields(request)
        account = signed_in(request)
        stats = statistics(await clubs.results_of(await accounts.keys_of(account.id)))
        back, faces = fields.get("back"), fields.get("faces")
        if back is not None:
            if back not in collection.backs_unlocked(stats.level):
                raise HTTPException(403, "That card back is not unlocked yet.")
            await accounts.set_choices(account.id, card_back=back)
        if faces is not None:
            if faces not in collection.faces_unlocked(stats.achievements):
                raise HTTPException(403, "Those card faces are not unlocked yet.")
            await accounts.set_choices(account.id, card_faces=faces)
        return RedirectResponse("/club/collection?done=1", status_code=303)

    @router.get("/club/backs/{key}.svg")
    async def back_picture(key: str) -> Response:
        if key not in collection.BACK_KEYS or key == "classic":
            raise HTTPException(404, "There is no such card back.")
        return Response(collection.back_svg(key), media_type=SVG, headers=CACHED)

    @router.get("/club/faces/{style}/{card}.svg")
    async def face_picture(style: str, card: str) -> Response:
        try:
            picture = collection.face_svg(style, card)
        except ValueError:
            raise HTTPException(404, "There is no such card picture.") from None
        return Response(picture, media_type=SVG, headers=CACHED)

    return router
