// The common iconography of the web, as data (issue 25 §5): people name an icon-only control by
// what they SEE ("the bin", "the circular arrow", "the three dots", "the paper plane") or by what
// it DOES ("delete", "refresh", "more actions", "send"), while the page names it the way its icon
// set does (Font Awesome `fa-rotate-right`, Material `autorenew`, Bootstrap `bi-arrow-clockwise`,
// Glyphicons `glyphicon-refresh`, Ionicons, Feather/Lucide, Heroicons `arrow-path`, jQuery UI
// `ui-icon-refresh`). Each concept below is one picture with its picture words, its purposes and
// the names icon sets give it; a description matches an icon when both fall in one concept. It
// is a vocabulary of the web's icons, not of any test page: a word in two concepts ("three dots":
// a kebab and a meatball; "favourite": a star and a heart) matches both, and the resolver refuses
// when two different icons on the page fit (never a silent pick).

/** The crosses a delete, remove or close control shows, and people type for it (× ✕ ⓧ ...). */
export const CROSS_GLYPHS = ['×', '✕', '✖', '✘', 'ⓧ', '⊗', '❌'];

// One line per concept: pictures | purposes | icon-set names (comma-separated, spaces for - and _).
const TABLE = `
bin, trash, trash can, trashcan, garbage can, garbage, wastebasket, waste basket, dustbin, rubbish bin, litter bin, wheelie bin | delete, remove, discard, destroy, throw away, erase | trash, trash can, trash alt, trash 2, trash o, trash empty, delete, delete forever, delete outline, bin, recycle bin, wastebasket, garbage, trash bin, delete sweep, trash3
x, ×, ✕, ✖, ✗, ✘, ⓧ, ⊗, ⊠, ❌, ❎, 🗙, cross, x mark, circled x, x in a circle, times, multiplication sign, ⨯, ╳ | close, dismiss, cancel, clear, remove, hide | close, x, times, xmark, x lg, x circle, times circle, circle xmark, close circle, remove, clear, cancel, multiply, cross, window close, x square, closethick, circle close, x mark, close outline, dismiss
pencil, pen, pencil and paper, pencil in a square, ✎, ✏ | edit, modify, change, rename, write, compose | edit, pencil, pen, pencil alt, pencil square, pencil square o, pen to square, square pen, edit 2, edit 3, create, mode edit, mode, edit note, pencil fill, pencil line, compose, edit square, pen nib, edit pen
plus, plus sign, +, ＋, plus in a circle, plus in a square | add, new, create, insert, increase, more | add, plus, plus circle, plus square, plus lg, add circle, add box, circle plus, square plus, add circle outline, plus thick, plus sign, plus circle fill, add outline, new
minus, minus sign, dash, −, - | subtract, decrease, less, remove, collapse | minus, remove, dash, dash lg, minus circle, minus square, remove circle, circle minus, square minus, do not disturb on, minus sign, dash circle
circular arrow, circle arrow, round arrow, arrow in a circle, arrows in a circle, circling arrows, curved arrows, rotating arrow, rotating arrows, two arrows in a circle, clockwise arrow, counterclockwise arrow, anticlockwise arrow, arrow going round, spinning arrows | refresh, reload, sync, synchronise, synchronize, retry, reset, update, rotate, repeat, loop, start over, clear | refresh, reload, rotate right, rotate, rotate cw, rotate ccw, rotate left, arrow clockwise, arrow counterclockwise, arrows rotate, arrow rotate right, arrow rotate left, autorenew, cached, sync, sync alt, repeat, replay, loop, loop circular, refresh cw, refresh ccw, arrow repeat, arrows clockwise, restart, restart alt, arrow path, arrow path rounded square, arrowrefresh, refresh circle, reset, rotate clockwise, rotate counter clockwise, update, arrow sync
curved arrow left, curving left arrow, u turn arrow, back curved arrow, undo arrow | undo, revert, step back | undo, undo alt, arrow uturn left, rotate left, arrow counterclockwise, arrowreturnthick, arrowreturn
curved arrow right, curving right arrow, redo arrow | redo, repeat, step forward | redo, redo alt, arrow uturn right, rotate right, arrow clockwise
chain, chain link, chain links, link, links, paperclip chain | link, hyperlink, insert link, add link, url, permalink, copy link | link, link 45deg, chain, link alt, insert link, link 2, add link, link simple, link horizontal, paperclip link
broken chain, broken link, chain with a slash | unlink, remove link, disconnect | unlink, link slash, chain broken, link off, chain slash, link 2 off, link broken, link 45deg off
paperclip, paper clip, clip | attach, attachment, attach file, add attachment | paperclip, paper clip, attach file, attachment, attach, attach 2, clip
three dots, three dot, 3 dots, three vertical dots, vertical dots, dots, vertical ellipsis, kebab, kebab menu, ⋮, ︙ | more, more options, more actions, options, actions, overflow, overflow menu, menu | more vert, ellipsis v, ellipsis vertical, three dots vertical, dots vertical, more vertical, kebab, dots three vertical, ellipsis vertical circle
three dots, three dot, 3 dots, three horizontal dots, horizontal dots, dots, ellipsis, meatball, meatball menu, kebab, kebab menu, ..., ⋯, …, ··· | more, more options, more actions, options, actions, overflow, overflow menu, menu | more horiz, ellipsis h, ellipsis, ellipsis horizontal, three dots, dots horizontal, more horizontal, more, dots three, dots three horizontal, ellipsis horizontal circle, more circle
three lines, three bars, three horizontal lines, stacked lines, horizontal lines, bars, hamburger, hamburger menu, burger, burger menu, ≡, ☰ | menu, navigation, open menu, main menu, nav, navigation menu, toggle navigation, sidebar | menu, bars, navicon, hamburger, menu alt, bars staggered, list, reorder, menu 2, menu burger, three bars, justify, menu open, menu outline, bars 3
cog, gear, cogwheel, gear wheel, cogs, gears, ⚙ | settings, preferences, options, configure, configuration, config, setup | cog, gear, gears, cogs, settings, gear fill, cog 6 tooth, cog 8 tooth, settings 2, gear wide, gear wide connected, settings outline, cog outline, gear six, settings applications
sliders, slider, knobs, faders, adjustments, mixer | adjust, tune, customize, filter settings, options | sliders, sliders h, sliders horizontal, sliders vertical, tune, adjustments, adjustments horizontal, sliders 2, options, adjust, equalizer, settings adjust
funnel, filter | filter, refine, narrow | filter, funnel, filter alt, filter list, funnel fill, filter outline, filter circle, filter square
magnifier, magnifying glass, magnifying lens, lens, loupe, looking glass, 🔍, 🔎 | search, find, look up, lookup, seek | search, magnifying glass, magnifier, find, search alt, search outline, manage search, loupe, zoom, search sharp
magnifier with a plus, magnifying glass with a plus | zoom in, enlarge, magnify, bigger | zoom in, search plus, magnifying glass plus, plus magnifier, zoomin, zoom plus
magnifier with a minus, magnifying glass with a minus | zoom out, smaller, shrink | zoom out, search minus, magnifying glass minus, minus magnifier, zoomout, zoom minus
paper plane, paper airplane, paper aeroplane, plane, airplane | send, submit, post, send message | send, paper plane, paperplane, send fill, paper airplane, send alt, send outline, paper plane tilt, location arrow
floppy disk, floppy, diskette, disk, disc, 💾 | save, store, keep | save, floppy, floppy o, floppy disk, floppy 2, floppy2, device floppy, content save, disk, save outline, save as, floppy fill, save2
arrow into a tray, arrow down into a tray, down arrow into a tray, arrow down to a line, down arrow with a line, cloud with a down arrow | download, get, export, save to device | download, cloud download, file download, arrow down tray, arrow down to line, download alt, get app, cloud arrow down, box arrow in down, arrow down circle, download outline, download 2, save alt
arrow out of a tray, arrow up out of a tray, up arrow out of a tray, arrow up from a line, cloud with an up arrow | upload, import, attach file, publish | upload, cloud upload, file upload, arrow up tray, arrow up from bracket, arrow up from line, cloud arrow up, box arrow up, upload outline, publish, upload 2
arrow out of a box, arrow out of a tray, box with an arrow, tray with an arrow, square with an arrow up, connected dots, three connected dots, nodes, share arrow, curved arrow | share, send to, forward, share post | share, share alt, share nodes, share square, share 2, share fill, share social, square share nodes, ios share, box arrow up, arrow up on square, arrow up from square, share outline, share android, share variant, share from square
curved arrow right, right curved arrow, bent arrow | forward, forward message, pass on | forward, mail forward, arrow bend up right, forward outline, forward to inbox
curved arrow left, left curved arrow, bent arrow back | reply, respond, answer, reply to | reply, reply all, mail reply, arrow bend up left, arrow back up, reply fill, chat reply, reply outline
heart, ♥, ❤, ♡ | like, love, favourite, favorite, fave, unlike | heart, favorite, favorite border, heart outline, heart o, heart fill, heart empty, suit heart, loved, heart alt, heart circle, heart 2, like
star, ★, ☆, ⭐ | star, unstar, favourite, favorite, rate, rating, starred, bookmark | star, star o, star border, star outline, grade, star half, star fill, star empty, kid star, star rate, stars, star half alt, star half stroke, star 2, bookmark star, starred
thumbs up, thumb up, thumbs-up, upturned thumb, 👍 | like, upvote, approve, agree, unlike | thumbs up, thumb up, hand thumbs up, thumbs o up, like, thumb up off alt, thumbs up outline, thumb up alt, like 2, hand thumbs up fill, up vote
thumbs down, thumb down, 👎 | dislike, downvote, disapprove, disagree | thumbs down, thumb down, hand thumbs down, thumbs o down, dislike, thumb down off alt, thumbs down outline, down vote
bookmark, ribbon, bookmark ribbon, banner | bookmark, save, save for later, keep, unbookmark | bookmark, bookmark border, bookmark o, bookmark outline, bookmark fill, bookmarks, bookmark add, bookmark plus, turned in, turned in not, bookmark simple, bookmark check, bookmark added
bell, 🔔 | notifications, notification, alerts, alert, notify, subscribe, reminders, reminder | bell, bell o, notifications, notifications none, notifications active, notifications outline, bell fill, notification, bell ring, bell alt, bell simple, notifications on, bell badge
bell with a slash, crossed out bell, crossed-out bell | mute notifications, unsubscribe, turn off notifications, snooze | bell slash, notifications off, bell off, bell slash o, bell x, bell slash fill, notifications paused
envelope, letter, closed envelope, ✉ | mail, email, e-mail, message, send email, contact, mark as unread, unread | envelope, mail, email, envelope o, envelope fill, mail outline, markunread, mail closed, envelope closed, envelope simple, mail 2, contact mail, local post office
open envelope, opened envelope | mark as read, read, drafts | envelope open, drafts, mail open, mark email read, envelope open o, mail opened, envelope open text, mark as read
speech bubble, bubble, chat bubble, balloon, speech balloon, two speech bubbles | comment, comments, reply, chat, message, discuss, discussion, messages | comment, comments, chat, chat bubble, message, forum, comment alt, comment dots, chat dots, chatbubble, chatbubbles, message circle, message square, chat left, chat left text, mode comment, sms, question answer, comment o, chat square, chat alt, chat 2, chatbox, chat bubble outline
person, silhouette, head and shoulders, user, avatar, figure, person icon | profile, account, user, my account, me, sign in, user menu | user, person, account circle, person circle, person fill, user circle, account, face, profile, user o, user alt, person outline, account box, user 2, circle user
people, group of people, two people, three people | users, team, members, contacts, group, people | users, people, group, people fill, user group, groups, supervisor account, team, people outline, users 2, user friends, people group
person with a plus | add user, invite, add member, follow, add friend, assign, add assignee | user plus, person add, person plus, add user, user add, person add alt, person plus fill, user plus 2, add person, group add
house, home | home, homepage, start page, start, dashboard | home, house, house door, home outline, home alt, house fill, house chimney, home 2, house door fill, home filled
i, letter i, i in a circle, circled i, ⓘ, ℹ | info, information, details, about, more info, more information | info, info circle, info sign, information, info outline, circle info, info lg, information circle, info square, information outline, info 2
question mark, question, ?, question mark in a circle | help, faq, support, what is this | question, question circle, help, help outline, circle question, question mark, help circle, question sign, question lg, contact support, question square, help center, question diamond
triangle with an exclamation mark, exclamation triangle, exclamation mark, exclamation, !, ⚠ | warning, alert, caution, problem, error | warning, exclamation, exclamation triangle, triangle exclamation, alert triangle, warning sign, report problem, alert, error outline, exclamation circle, circle exclamation, error, alert circle, priority high, warning amber
calendar, 📅 | date, schedule, pick a date, pick date, event, events, choose date | calendar, calendar alt, event, calendar today, date range, calendar event, calendar3, calendar days, calendar o, calendar month, edit calendar, calendar check, calendar day, today, calendar week
clock, watch, alarm clock, ⏰ | time, pick a time, schedule, recent, pending | clock, time, clock o, schedule, access time, watch later, alarm, time outline, clock fill, timer, time five, query builder, clock 3
clock with an arrow, arrow around a clock | history, recent, restore, revisions, version history | history, clock rotate left, clock history, restore, manage history, update, history edu, clock counter clockwise, history toggle off
padlock, lock, closed padlock, 🔒 | lock, secure, private, protect, locked, password | lock, lock closed, padlock, lock fill, lock outline, https, locked, lock alt, lock 2, shield lock
open padlock, unlocked padlock, 🔓 | unlock, unlocked, make public | unlock, lock open, unlock alt, padlock open, unlocked, lock open fill, no encryption, lock unlocked
eye, 👁 | show, view, preview, reveal, show password, visible, watch, see | eye, visibility, eye open, eye fill, eye outline, preview, remove red eye, view, eye 2, show
eye with a slash, crossed out eye, crossed-out eye, closed eye | hide, hide password, invisible, conceal | eye slash, eye off, visibility off, eye close, eye closed, eye blocked, eye slash fill, hide, eye invisible, eye off outline
printer, 🖨 | print, print page | print, printer, local printshop, print outline, printer fill, print 2
two squares, overlapping squares, two overlapping squares, two pages, stacked pages, two sheets | copy, duplicate, clone, copy to clipboard | copy, clone, files, content copy, copy alt, documents, duplicate, file copy, files o, copy outline, square on square, document duplicate, copy 2, clipboard copy, squares two
clipboard, 📋 | paste, clipboard | clipboard, paste, content paste, clipboard check, clipboard list, clipboard data, clipboard text
scissors, ✂ | cut | scissors, cut, content cut, cut outline
camera, 📷 | take a photo, take photo, photo, snapshot, capture, upload photo | camera, photo camera, camera alt, add a photo, camera fill, camera outline, add photo alternate, camera 2, camera retro
picture, landscape, mountain, mountains, photo, image, 🖼 | image, photo, picture, gallery, insert image, add image, photos | image, picture o, photo, images, insert photo, image fill, photograph, file image, card image, image outline, photo library, collections, image 2, picture
video camera, film, movie camera, film strip, 🎥 | video, record video, movie, videos, start video | video, videocam, film, video camera, camera video, movie, video outline, video fill, film outline, camera reels, video library
microphone, mic, 🎤 | record, voice, speak, dictate, voice message, unmute | microphone, mic, mic fill, keyboard voice, mic none, mic outline, microphone alt, mic 2, record voice over
microphone with a slash, crossed out microphone | mute, mute microphone | microphone slash, mic off, mic mute, mic slash, microphone off, mic mute fill
speaker, loudspeaker, 🔊 | sound, volume, audio, unmute, sound on | volume up, volume high, volume, speaker, volume 2, volume down, volume low, volume on, speaker wave, volume medium, volume full, volume loud
speaker with a slash, speaker with an x, crossed out speaker, 🔇 | mute, silence, sound off, mute sound | volume mute, volume off, volume xmark, volume x, mute, speaker slash, volume slash, speaker x mark, volume off outline, speaker xmark
triangle pointing right, right pointing triangle, play triangle, play button, ▶, ► | play, start, resume, play video | play, play arrow, play circle, play fill, play outline, circle play, play circle outline, play 2, play btn, triangle 1 e
two vertical bars, two bars, pause bars, ⏸ | pause, hold | pause, pause circle, pause fill, pause outline, circle pause, pause btn
square, filled square, ■, ⏹ | stop, end | stop, stop circle, stop fill, stop outline, circle stop, square, stop btn
double triangle right, skip forward arrows, ⏭ | next track, skip, skip forward, fast forward, next | forward step, skip next, step forward, fast forward, forward fast, skip forward, seek next, play skip forward, track next
double triangle left, skip back arrows, ⏮ | previous track, skip back, rewind, previous | backward step, skip previous, step backward, fast backward, backward fast, rewind, skip backward, seek prev, play skip back, track prev
pushpin, push pin, thumbtack, thumb tack, pin, 📌 | pin, unpin, stick, keep on top | thumbtack, thumb tack, pin, push pin, pin angle, pin fill, keep, pin outline, pushpin, pin off, thumbtack slash
map pin, map marker, location pin, marker, pin drop, teardrop pin, 📍 | location, place, address, where, show on map, directions | map marker, location dot, location pin, place, location on, geo alt, map pin, room, map marker alt, location, location sharp, geo, pin drop, marker, location outline, add location
folded map, map | map, show map, map view | map, map o, map outline, map fill, map 2, map location, map marked
globe, world, earth, 🌐 | language, choose language, translate, website, public, internet, region, web | globe, earth, world, language, public, globe americas, globe2, globe europe africa, earth americas, globe alt, web, translate, world outline
flag, 🚩 | report, flag, mark, report abuse | flag, flag o, flag fill, outlined flag, flag outline, flag alt, flag 2, tour, flag checkered, emoji flags
tag, label, price tag, 🏷 | tag, label, labels, category, tags, add tag | tag, tags, label, local offer, sell, pricetag, pricetags, tag fill, label outline, tag outline, bookmark tag
shopping cart, cart, trolley, basket, shopping basket, shopping bag, bag, 🛒 | add to cart, cart, checkout, shopping, buy, add to basket, basket, add to bag, view cart | shopping cart, cart, cart plus, add shopping cart, cart shopping, cart fill, basket, shopping basket, shopping bag, bag, cart arrow down, basket shopping, bag fill, cart outline, cart 2, shopping cart outline, bag handle
cloud, ☁ | cloud, cloud storage, sync | cloud, cloud o, cloud fill, cloud queue, cloud outline, cloud done
folder, 📁 | folder, directory, open folder, browse, files | folder, folder open, folder o, folder fill, folder outline, folder collapsed, folder 2, folder closed, folder open o
page, sheet of paper, sheet, document, file, 📄 | file, document, page, open file, view document | file, file text, file o, description, document, file alt, article, file earmark, note, file lines, document text, file text o, document outline, file earmark text
page with a plus, document with a plus | new file, new document, add file, create document | file plus, note add, file earmark plus, document add, file add, file circle plus, document plus, post add
check mark, checkmark, tick, tick mark, ✓, ✔, ☑, ✅, 🗸 | confirm, ok, okay, done, accept, approve, complete, yes, mark as done, mark done, verify | check, check circle, check lg, check2, checkmark, done, ok, check square, task alt, check mark, circle check, tick, check circle outline, check 2, checkmark circle, checkmark done, check fill, check thick, check all
double check mark, two check marks, two ticks | mark all read, mark all as read, read receipts, all done | check double, done all, check2 all, checks, checkmark done, check all, double check
circle with a slash, no entry sign, prohibited sign, ⊘, 🚫 | block, ban, forbid, prohibit, disable, deny | ban, block, slash circle, circle slash, do not disturb, not allowed, ban circle, cancel, remove circle, not interested, block helper, circle off
power symbol, power button, ⏻ | power, shut down, turn off, turn on, switch off | power, power off, power settings new, power button, power outline, off
door with an arrow, arrow leaving a door, arrow out of a door, exit door, arrow out of a box right | log out, logout, sign out, exit, leave | sign out, right from bracket, log out, logout, box arrow right, exit to app, arrow right from bracket, door open, log out outline, exit, sign out alt, arrow right on rectangle, leave, door exit
arrow into a door, arrow entering a door, arrow into a box | log in, login, sign in, enter | sign in, right to bracket, log in, login, box arrow in right, arrow right to bracket, enter, log in outline, sign in alt, arrow left on rectangle, door enter
four arrows outward, arrows pointing outward, corners, expanding arrows, diagonal arrows outward | full screen, fullscreen, expand, maximize, enlarge, open full screen | expand, expand arrows, fullscreen, maximize, arrows fullscreen, arrows angle expand, arrows alt, maximize 2, up right and down left from center, expand alt, open in full, arrows pointing out, zoom out map, fullscreen enter
four arrows inward, arrows pointing inward, diagonal arrows inward | exit full screen, minimize, shrink, collapse, restore size | compress, fullscreen exit, minimize, minimize 2, arrows angle contract, down left and up right to center, compress alt, close fullscreen, arrows pointing in, compress arrows
arrow out of a square, square with an arrow, arrow pointing out of a box, box with an arrow out, arrow up right | open in new tab, open in new window, external link, open externally, pop out, open link, launch | external link, open in new, box arrow up right, arrow up right from square, square arrow up right, external link alt, arrow top right on square, launch, new window, external link square, extlink, newwin, open outline, open new, link external, square up right, up right from square
down arrow, downward arrow, arrow down, caret down, down caret, chevron down, down chevron, ▼, ▾, ⌄, ↓, v shape, triangle down, down triangle, ˅, ⬇, ⮟ | expand, show more, dropdown, unfold, down, decrease, decrement, move down, scroll down, lower | chevron down, caret down, angle down, arrow drop down, expand more, arrow down s, keyboard arrow down, triangle down, chevron down circle, sort down, arrow down, arrow downward, arrow down short, caret down fill, angle double down, chevron compact down, down, triangle 1 s, carat 1 s, arrow 1 s, arrowthick 1 s, spinner down, chevron down outline, arrow down circle
up arrow, upward arrow, arrow up, caret up, up caret, chevron up, up chevron, ▲, ▴, ⌃, ↑, triangle up, up triangle, ˄, ⬆, ⮝ | collapse, show less, fold, up, increase, increment, move up, scroll up, raise, back to top | chevron up, caret up, angle up, arrow drop up, expand less, keyboard arrow up, triangle up, chevron up circle, sort up, arrow up, arrow upward, arrow up short, caret up fill, angle double up, chevron compact up, up, triangle 1 n, carat 1 n, arrow 1 n, arrowthick 1 n, spinner up, chevron up outline, arrow up circle
left arrow, arrow left, back arrow, left chevron, chevron left, caret left, left caret, ‹, «, ←, <, triangle left, left triangle, ⬅, ⟵ | back, previous, prev, go back, earlier, left, move left, previous page, prev page, page back, go to previous page | chevron left, angle left, arrow left, arrow back, caret left, keyboard arrow left, navigate before, arrow back ios, arrow left short, chevron back, triangle left, left, arrow left circle, chevron left circle, angle double left, caret left fill, triangle 1 w, carat 1 w, arrow 1 w, arrowthick 1 w, seek prev, arrow back outline, chevron compact left
right arrow, arrow right, right chevron, chevron right, caret right, right caret, ›, », →, >, triangle right, right triangle, ➜, ➔, ➡, ⟶ | next, forward, continue, go, proceed, later, right, move right, next page, page forward, go to next page | chevron right, angle right, arrow right, arrow forward, caret right, keyboard arrow right, navigate next, arrow forward ios, chevron forward, triangle right, right, arrow right circle, chevron right circle, angle double right, caret right fill, triangle 1 e, carat 1 e, arrow 1 e, arrowthick 1 e, seek next, arrow forward outline, chevron compact right
up and down arrows, up down arrows, two arrows, double arrow, arrows, ⇅, ↕ | sort, order, reorder, sort by, change order, swap | sort, sort alt, arrow down up, arrows up down, swap vert, unfold more, sort up down, arrow down arrow up, arrows sort, arrow up down, swap vertical, import export, arrows vertical, triangle 2 n s, carat 2 n s, arrowthick 2 n s, swap
six dots, grip, dotted grip, drag dots, two columns of dots, grip lines, handle, drag handle, ⠿, ⋮⋮ | drag, reorder, rearrange, drag to reorder | grip vertical, grip horizontal, grip, drag indicator, drag handle, grip lines, grip dotted vertical, grip dotted horizontal, arrows move, drag, grip solid horizontal, grip lines vertical, dots six vertical, reorder two, drag vertical
bold b, b, letter b, bold letter b | bold, make bold, strong | bold, format bold, type bold, text bold, bold outline
italic i, slanted i, letter i in italics, italic letter i | italic, italics, make italic, emphasis | italic, format italic, type italic, text italic
underlined u, u, letter u, underlined letter u | underline, underlined | underline, format underlined, type underline, text underline
struck through s, crossed out s, strikethrough s | strikethrough, strike through, strike | strikethrough, format strikethrough, strikethrough s, type strikethrough, text strikethrough
dots and lines, lines with dots, bullets, bullet points, bulleted lines, dotted list | bulleted list, bullet list, unordered list, bullets, list | list ul, format list bulleted, list bulleted, list unordered, list bullet, list dots, listul, list, list task, list 2
numbers and lines, numbered lines, 1 2 3 lines, numbered list icon | numbered list, ordered list, numbering, number list | list ol, format list numbered, list numbered, list ordered, listol, list number, list 1 2
lines aligned left | align left, left align | align left, format align left, text left, text align left, justify left, paragraph left, bars 3 bottom left
lines centred, lines centered | align center, centre, center, center align | align center, format align center, text center, text align center, justify center, paragraph center
lines aligned right | align right, right align | align right, format align right, text right, text align right, justify right, paragraph right
quotation marks, quote marks, quotes, “ | quote, blockquote, cite, insert quote | quote left, format quote, quote right, blockquote, quote, quote alt, chat quote
angle brackets, </>, code brackets, brackets | code, source code, embed, insert code, html | code, code slash, code alt, code bracket, code square, code tags, code working, file code, terminal
table, grid, spreadsheet | table, insert table, grid | table, table cells, grid on, table chart, border all, table 2, table list, grid 3x3, table large
four squares, grid of squares, squares, tiles, nine dots, grid of dots, waffle, app launcher | grid view, tiles, apps, all apps, gallery view, thumbnails | th, grid, grid 3x3 gap, view module, apps, grid view, th large, grid fill, view grid, squares four, layout grid, grid 3x3 gap fill, dots nine, view comfy, layout, app window
lines, rows, horizontal rows, list lines | list view, rows, details view | th list, view list, list view, view headline, view agenda, rows, list details, table rows
gauge, speedometer, dial | dashboard, overview, performance | dashboard, tachometer, gauge, speedometer, tachometer alt, gauge high, speed, speedometer2, gauge simple
bar chart, chart, graph, bars chart, line chart, pie chart, 📊 | statistics, stats, analytics, reports, charts, insights, metrics | bar chart, chart bar, bar chart o, insert chart, chart line, graph up, analytics, stats chart, chart, bar chart 2, pie chart, chart pie, bar chart line, graph up arrow, signal cellular alt, leaderboard, assessment, chart simple, presentation chart bar
lightning, lightning bolt, bolt, thunderbolt, zap, ⚡ | flash, quick, instant, boost, quick action, power | bolt, lightning, flash, flash on, zap, lightning charge, lightning fill, bolt lightning, flash outline, electric bolt, offline bolt
key, 🔑 | password, key, api key, credentials, keys, change password | key, vpn key, key fill, key skeleton, key outline, key 2, password, keys
shield, 🛡 | security, protection, privacy, protect, safe, secure | shield, shield alt, security, shield check, shield halved, verified user, gpp good, shield fill, shield outline, shield lock, admin panel settings
wrench, spanner, tools, screwdriver and wrench, hammer and wrench, 🔧 | tools, repair, maintenance, build, fix, service | wrench, tools, build, construction, screwdriver wrench, wrench adjustable, handyman, hammer, tool, wrench outline
bug, beetle, insect, 🐛 | report a bug, bug report, debug, bug | bug, bug report, bug fill, bug ant, bug outline, pest control
light bulb, lightbulb, bulb, 💡 | idea, tip, hint, suggestion, tips, suggest | lightbulb, lightbulb o, lightbulb outline, emoji objects, tips and updates, bulb, light, lightbulb fill, lamp
sun, ☀ | light mode, light theme, brightness, day mode | sun, sun o, light mode, brightness high, wb sunny, sunny, sun fill, brightness, sun outline
moon, crescent, crescent moon, 🌙 | dark mode, dark theme, night mode, sleep | moon, moon o, dark mode, bedtime, night, moon fill, moon stars, moon outline, moon alt
telephone, phone, handset, phone receiver, ☎, 📞 | call, phone, dial, ring, call us, phone number | phone, telephone, call, phone alt, telephone fill, phone call, local phone, phone outline, phone volume, call outline, contact phone
mobile phone, smartphone, cell phone, 📱 | mobile, sms, text, device | mobile, mobile alt, phone iphone, smartphone, phone android, device mobile, mobile screen, phone portrait, device phone mobile
@, at sign, at symbol | mention, email address | at, alternate email, at sign, at symbol
#, hash, hash sign, pound sign, hashtag | hashtag, channel, number, tag | hashtag, hash, tag 2, numbers, grid 3x3 gap hash, number sign
gift, present, gift box, 🎁 | gift, rewards, offers, redeem, gift card | gift, card giftcard, gift fill, redeem, gift outline, gifts
trophy, cup, award cup, 🏆 | achievements, awards, rank, leaderboard, win, prize | trophy, emoji events, award, trophy fill, trophy outline, military tech, medal
credit card, bank card, card, 💳 | pay, payment, billing, checkout, card details, add card | credit card, credit card alt, payment, card, credit card 2, credit card fill, payments, card outline, cc visa, credit card front, wallet card
wallet, purse, 👛 | wallet, balance, funds | wallet, account balance wallet, wallet2, wallet fill, wallet outline, wallet alt, purse
dollar sign, $, money, coins, banknote, bill, cash, 💲, 💰 | price, pay, money, payment, cost, donate, pricing | dollar, dollar sign, attach money, money, coins, cash, currency dollar, money bill, usd, payments, cash stack, cash coin, money bill wave, cash outline, hand holding dollar, euro, currency exchange
box, archive box, file box, storage box, drawer, cardboard box, 🗃, 📦 | archive, store, put away, archived | archive, box archive, inventory, box, box seam, archive fill, archive outline, file box, inventory 2, archive box, box open
tray, inbox tray, in tray, inbox | inbox, messages, incoming | inbox, inbox fill, move to inbox, inboxes, inbox outline, inbox in, all inbox, tray, inbox arrow down
box with an up arrow, archive box with an arrow | unarchive, restore, move to inbox, unarchived | unarchive, box arrow up, archive restore, restore from trash, move to inbox, box arrow in up
headphones, headset, 🎧 | support, audio, listen, customer support | headphones, headset, headset mic, support agent, headphones alt, headphones outline, earbuds
crosshair, crosshairs, target, bullseye, 🎯 | locate, my location, find me, center map, recenter, aim | crosshairs, my location, gps fixed, location crosshairs, bullseye, crosshair, locate, target, gps not fixed, location arrow, navigation
toggle, switch, toggle switch | toggle, on off, enable, disable, turn on, turn off | toggle on, toggle off, toggle2 on, toggle2 off, toggle, toggle left, toggle right, switch, toggle switch, toggle switch off
rss, feed icon, radio waves, wifi arcs | subscribe, feed, rss, rss feed | rss, rss square, rss feed, feed, rss fill, rss outline, logo rss
smiley, smiley face, happy face, emoji, face, ☺, 😀 | emoji, react, reaction, add reaction, insert emoji, emoticon, mood | smile, face smile, smile o, mood, emoji emotions, insert emoticon, emoji smile, sentiment satisfied, happy, emoji happy, face smile beam, add reaction, smile plus, emoji add
book, open book, 📖 | read, documentation, docs, guide, manual, help docs, learn | book, book open, menu book, journal, auto stories, library books, book half, book outline, books, journal text, book fill
magic wand, wand, sparkles, ✨ | magic, auto, ai, generate, enhance, auto fix, improve | magic, wand magic, wand magic sparkles, auto fix high, sparkles, auto awesome, magic wand, auto fix normal, wand sparkles
crop, crop marks | crop, trim | crop, crop alt, crop free, crop simple, crop 2
layers, stacked sheets, stack | layers, stack, levels | layers, layer group, stack, layers fill, layers outline, layers alt
eraser, 🧽 | erase, clear formatting, remove formatting, clear | eraser, eraser fill, format clear, ink eraser, clear formatting
paint roller, paint brush, brush, palette, paint bucket, 🎨 | colour, color, theme, paint, style, fill colour | paint brush, paintbrush, palette, brush, format paint, color lens, paint bucket, fill drip, format color fill, paint roller, paint
hourglass, ⏳ | loading, wait, pending, timer | hourglass, hourglass half, hourglass start, hourglass end, hourglass empty, hourglass split, hourglass top, hourglass bottom, hourglass outline
sidebar, panel, split panel | toggle sidebar, show sidebar, hide sidebar, side panel, collapse sidebar, dock | sidebar, layout sidebar, layout sidebar inset, view sidebar, side navigation, panel left, left panel open, left panel close, dock left, sidebar left, sidebar right, table columns, columns
keyboard, ⌨ | keyboard, shortcuts, keyboard shortcuts, type | keyboard, keyboard o, keyboard alt, keyboard outline, keyboard fill
fingerprint | biometric, touch id, identity | fingerprint
qr code, barcode | scan, qr, scan code | qrcode, qr code, barcode, qr code scanner, qr code scan, qr code 2
building, office, bank, 🏢 | company, organisation, organization, business, office | building, business, domain, apartment, building o, corporate fare, bank, city, office building, buildings
compass, 🧭 | explore, discover, browse, navigate | compass, explore, compass outline, safari, navigation outline
`;

export interface IconConcept {
  id: number;
  pictures: string[];
  purposes: string[];
  names: string[];
}

/** Words as compared: lower case, dashes, underscores and dots between words as spaces. */
export function iconNorm(s: string): string {
  return s
    .toLowerCase()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_/]+/g, ' ')
    .replace(/[“”"'’()[\]{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const ICON_CONCEPTS: IconConcept[] = TABLE.trim().split('\n').map((line, id) => {
  const [pictures, purposes, names] = line.split(' | ').map((part) => (part ?? '').split(',').map((w) => iconNorm(w)).filter(Boolean));
  return { id, pictures, purposes, names };
});

// Index: term → concepts, by the kind of term.
const BY_PICTURE = new Map<string, Set<number>>();
const BY_PURPOSE = new Map<string, Set<number>>();
const BY_NAME = new Map<string, Set<number>>();
for (const c of ICON_CONCEPTS) {
  for (const [map, list] of [[BY_PICTURE, c.pictures], [BY_PURPOSE, c.purposes], [BY_NAME, c.names]] as const) {
    for (const t of list) {
      if (!map.has(t)) map.set(t, new Set());
      map.get(t)!.add(c.id);
    }
  }
}
const ANY_TERM = (t: string): number[] => [...new Set([...(BY_PICTURE.get(t) ?? []), ...(BY_PURPOSE.get(t) ?? []), ...(BY_NAME.get(t) ?? [])])];
// A purpose a person says fits more pictures than a control's own name for it does: the × at the
// end of a row deletes it ("the × delete icon", "the delete button" showing ×), but a control
// named "delete" may be drawn as a bin, and one named "close" closes: "the ×" never means the
// first, "delete" never the second. Read for the words only, beside a glyph or a shown cross.
const SAID_ALSO = new Map<string, number[]>([['delete', ANY_TERM('×')]]);
const SAID = (t: string): number[] => [...new Set([...ANY_TERM(t), ...(SAID_ALSO.get(t) ?? [])])];

// Words about a picture's look or a control's kind around the picture words ("the small pink
// heart icon", "the three-dots menu button"): dropped from a description before it is read.
const LOOK = /^(?:dashed|dotted|red|green|blue|yellow|pink|grey|gray|black|white|orange|purple|dark|light|small|big|large|little|tiny|empty|filled|hollow|solid|outlined|highlighted|bold|bright|pale|golden|gold|silver|thin|thick|round|rounded|square|plain|simple|blank|faded|greyed|grayed|active|inactive|coloured|colored)$/;
const KIND_TAIL = /\s+(?:icon|icons|button|btn|symbol|glyph|sign|mark|thing|logo|picture|image|control|link|menu|toggle|shape)$/;
// A picture word with words that only say it is an arrow / a shape: "the undo arrow", "the share arrow".
const GENERIC = new Set(['arrow', 'icon', 'button', 'symbol', 'glyph', 'sign', 'shape', 'menu', 'thing', 'picture', 'image', 'logo', 'control', 'emblem', 'graphic', 'one']);
// Icon-set decorations in a name: variants, sizes, styles, numbers ("trash-2", "heart-fill", "x-lg", "link-45deg").
const NAME_NOISE = /^(?:o|fill|filled|outline|outlined|alt|sharp|round|rounded|two|tone|twotone|solid|regular|light|thin|bold|duotone|line|lg|sm|xs|xl|md|fw|icon|ico|btn|button|svg|\d+deg|\d+|v\d+|new|small|large|big)$/;

/** The concepts a description's picture or purpose words name ("circular arrow" → refresh ...); empty when none. */
export function conceptsOfWords(phrase: string, picturesOnly = false): number[] {
  const lookup = picturesOnly ? (t: string) => [...(BY_PICTURE.get(t) ?? [])] : ANY_TERM;
  let w = iconNorm(phrase).replace(/^(?:the|a|an|this|that)\s+/, '');
  for (let i = 0; i < 3; i++) w = w.replace(KIND_TAIL, '').trim();
  const words = w.split(' ').filter((x) => !LOOK.test(x));
  const attempts = [words.join(' '), words.filter((x) => !/^(?:a|an|the|of|with|in)$/.test(x)).join(' ')];
  // A plural ("the dots", "two stars") and a possessive are the picture too.
  attempts.push(...attempts.map((a) => a.replace(/(?<=[a-z]{3})s$/, '')));
  for (const a of attempts) {
    if (!a) continue;
    const hit = lookup(a);
    if (hit.length) return hit;
  }
  // A picture or purpose word with generic words around it: "undo arrow", "three dots menu".
  const ws = words;
  for (let len = ws.length - 1; len >= 1; len--) {
    for (let at = 0; at + len <= ws.length; at++) {
      const rest = [...ws.slice(0, at), ...ws.slice(at + len)];
      // A glyph beside the words that draws the same picture ("the ‹ previous page arrow") narrows them.
      const glyphs = rest.filter((r) => !GENERIC.has(r));
      if (!glyphs.every((r) => !/[\p{L}\p{N}]/u.test(r))) continue;
      // "the × delete icon": the glyph says which picture the purpose is drawn as.
      let hit = (glyphs.length && !picturesOnly ? SAID : lookup)(ws.slice(at, at + len).join(' '));
      for (const g of glyphs) hit = hit.filter((c) => ANY_TERM(g).includes(c));
      if (hit.length) return hit;
    }
  }
  return [];
}

/**
 * The concepts an element's (inferred) name says. An icon font's ligature (`delete_outline`,
 * `favorite`) is that set's own name, read as such only (Material's `favorite` is a heart, its
 * `clear` an ×). A class, sprite id or data token (`fa-rotate-right`, `#i-share`, `.clear`) is
 * a set's name or a purpose word. A name in words (an aria-label, a title: "Delete message",
 * "Move to trash") by the whole name, else the purpose it starts with, else the picture or set
 * name it ends with — never a word in the middle.
 */
export function conceptsOfName(name: string, from?: string): number[] {
  const words = iconNorm(name).split(' ').filter(Boolean);
  if (!words.length) return [];
  while (words.length > 1 && NAME_NOISE.test(words[words.length - 1])) words.pop();
  const n = words.join(' ');
  if (from === 'ligature') return [...(BY_NAME.get(n) ?? [])];
  const whole = ANY_TERM(n);
  if (whole.length) return whole;
  for (let len = words.length - 1; len >= 1; len--) {
    const head = BY_PURPOSE.get(words.slice(0, len).join(' '));
    if (head?.size) return [...head];
  }
  for (let len = words.length - 1; len >= 1; len--) {
    const tail = words.slice(words.length - len).join(' ');
    const hit = [...new Set([...(BY_NAME.get(tail) ?? []), ...(BY_PICTURE.get(tail) ?? [])])];
    if (hit.length) return hit;
  }
  return [];
}

/** Do the description's words and the element's (icon) name mean the same icon? */
export function sameIcon(name: string, phrase: string, from?: string): boolean {
  const want = conceptsOfWords(phrase);
  if (!want.length) return false;
  const have = conceptsOfName(name, from);
  if (have.some((c) => want.includes(c))) return true;
  // "the delete button" for a control that shows only a cross (a row's ×), never one named "close".
  return CROSS_GLYPHS.includes(name.trim()) && /(?:^|\s)delete(?:\s|$)/.test(iconNorm(phrase));
}

/** Is this phrase an icon's picture ("star", "bin", "circular arrow"), not only a purpose ("share")? */
export function isPictureWords(phrase: string): boolean {
  return conceptsOfWords(phrase, true).length > 0;
}

/** Is this phrase an icon's picture or purpose, as people say it ("bin", "three dots", "cog")? */
export function isIconWords(phrase: string): boolean {
  return conceptsOfWords(phrase).length > 0;
}

/**
 * Every word that stands for the same icon as this word (its concepts' pictures, purposes and
 * names): what the prove stage accepts on or around the element for a picture word.
 */
export function iconAlternatives(word: string): string[] {
  const ids = conceptsOfWords(word);
  const out = new Set<string>();
  for (const id of ids) {
    const c = ICON_CONCEPTS[id];
    for (const t of [...c.pictures, ...c.purposes, ...c.names]) if (/[a-z]/.test(t)) out.add(t);
  }
  return [...out];
}

/**
 * The glyphs drawn for the same icon as this word (× for "close", → and › for "next", ⋮ for
 * "three dots"): characters, not ASCII punctuation, so a price's "+" or a "..." in prose is none.
 */
export function iconGlyphs(word: string): string[] {
  const out = new Set<string>();
  for (const id of conceptsOfWords(word)) {
    const c = ICON_CONCEPTS[id];
    for (const t of [...c.pictures, ...c.names]) if (!/[\p{L}\p{N}\s]/u.test(t) && /[^\x00-\x7f]/.test(t) && [...t].length <= 2) out.add(t);
  }
  return [...out];
}

/** Multi-word picture terms in a description ("circular arrow", "paper plane"), longest first: kept as one naming word. */
export function iconPhrasesIn(description: string): string[] {
  const words = iconNorm(description).split(' ').filter(Boolean);
  const out: string[] = [];
  for (let len = Math.min(6, words.length); len >= 2; len--) {
    for (let at = 0; at + len <= words.length; at++) {
      const t = words.slice(at, at + len).join(' ');
      if ((BY_PICTURE.has(t) || BY_NAME.has(t) || BY_PURPOSE.has(t)) && !out.some((o) => o.includes(t))) out.push(t);
    }
  }
  return out;
}
