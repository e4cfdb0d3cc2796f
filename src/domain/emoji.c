/* Emoji rules: see emoji.h. The ranges are Unicode's Extended_Pictographic and the emoji
 * components (emoji-data.txt), rounded to whole blocks where a block is all symbols. */
#include "domain/emoji.h"

#include <stdint.h>
#include <string.h>

/* Decodes one code point of valid UTF-8; returns its length, 0 at a malformed byte. */
static size_t decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    static const unsigned char LEAD_BITS[] = {0, 0, 0x1f, 0x0f, 0x07};
    if (!len)
        return 0;
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!n || n > len)
        return 0;
    if (n == 1) {
        *cp = s[0];
        return 1;
    }
    uint32_t v = s[0] & LEAD_BITS[n];
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    *cp = v;
    return n;
}

static int pictographic(uint32_t c)
{
    static const uint32_t RANGES[][2] = {
        {0x00a9, 0x00a9},   {0x00ae, 0x00ae},   {0x203c, 0x203c},   {0x2049, 0x2049},
        {0x2122, 0x2122},   {0x2139, 0x2139},   {0x2194, 0x2199},   {0x21a9, 0x21aa},
        {0x231a, 0x231b},   {0x2328, 0x2328},   {0x2388, 0x2388},   {0x23cf, 0x23cf},
        {0x23e9, 0x23f3},   {0x23f8, 0x23fa},   {0x24c2, 0x24c2},   {0x25aa, 0x25ab},
        {0x25b6, 0x25b6},   {0x25c0, 0x25c0},   {0x25fb, 0x25fe},   {0x2600, 0x27bf},
        {0x2934, 0x2935},   {0x2b05, 0x2b07},   {0x2b1b, 0x2b1c},   {0x2b50, 0x2b50},
        {0x2b55, 0x2b55},   {0x3030, 0x3030},   {0x303d, 0x303d},   {0x3297, 0x3297},
        {0x3299, 0x3299},   {0x1f000, 0x1f0ff}, {0x1f10d, 0x1f10f}, {0x1f12f, 0x1f12f},
        {0x1f16c, 0x1f171}, {0x1f17e, 0x1f17f}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a},
        {0x1f1ad, 0x1f1e5}, {0x1f201, 0x1f20f}, {0x1f21a, 0x1f21a}, {0x1f22f, 0x1f22f},
        {0x1f232, 0x1f23a}, {0x1f23c, 0x1f23f}, {0x1f249, 0x1f3fa}, {0x1f400, 0x1f53d},
        {0x1f546, 0x1f64f}, {0x1f680, 0x1f6ff}, {0x1f774, 0x1f77f}, {0x1f7d5, 0x1f7ff},
        {0x1f80c, 0x1f80f}, {0x1f848, 0x1f84f}, {0x1f85a, 0x1f85f}, {0x1f888, 0x1f88f},
        {0x1f8ae, 0x1f8ff}, {0x1f90c, 0x1f93a}, {0x1f93c, 0x1f945}, {0x1f947, 0x1faff},
        {0x1fc00, 0x1fffd},
    };
    for (size_t i = 0; i < sizeof RANGES / sizeof RANGES[0]; i++)
        if (c >= RANGES[i][0] && c <= RANGES[i][1])
            return 1;
    return 0;
}

static int regional(uint32_t c)
{
    return c >= 0x1f1e6 && c <= 0x1f1ff;
}

static int keycap_base(uint32_t c)
{
    return (c >= '0' && c <= '9') || c == '#' || c == '*';
}

/* What may follow a pictograph inside one emoji: a variation selector, a skin tone, a tag. */
static int modifier(uint32_t c)
{
    return c == 0xfe0f || c == 0xfe0e || (c >= 0x1f3fb && c <= 0x1f3ff) ||
           (c >= 0xe0020 && c <= 0xe007f);
}

int rule_emoji_valid(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!len || len > RULE_EMOJI_MAX_BYTES)
        return 0;
    uint32_t c;
    size_t n = decode(s, len, &c);
    if (!n)
        return 0;
    if (keycap_base(c)) { /* 1️⃣: the digit, maybe FE0F, then the keycap */
        uint32_t d;
        size_t m = decode(s + n, len - n, &d);
        if (m && d == 0xfe0f) {
            n += m;
            m = decode(s + n, len - n, &d);
        }
        return m && d == 0x20e3 && n + m == len;
    }
    if (regional(c)) { /* a flag is exactly two */
        uint32_t d;
        size_t m = decode(s + n, len - n, &d);
        return m && regional(d) && n + m == len;
    }
    /* Pictographs joined by ZWJ, each with its modifiers (a woman technologist with a skin
     * tone, the rainbow flag, a subdivision flag with its tags). */
    size_t i = 0;
    while (i < len) {
        if (!(n = decode(s + i, len - i, &c)) || !pictographic(c))
            return 0;
        i += n;
        while (i < len && (n = decode(s + i, len - i, &c)) && modifier(c))
            i += n;
        if (i == len)
            return 1;
        if (!(n = decode(s + i, len - i, &c)) || c != 0x200d)
            return 0;
        i += n;
    }
    return 0; /* ended on a joiner */
}

int rule_emoji_custom_id_valid(const char *s, size_t len)
{
    if (!len || len > RULE_CUSTOM_EMOJI_MAX)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int rule_emoji_name_fold(char *s, size_t len)
{
    if (len < RULE_EMOJI_NAME_MIN || len > RULE_EMOJI_NAME_MAX)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] >= 'A' && s[i] <= 'Z')
            s[i] = (char)(s[i] - 'A' + 'a');
        else if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    }
    return 1;
}

const char *rule_emoji_by_name(const char *name)
{
    /* The names people react with most, as Slack and Mattermost spell them. */
    static const char *const TABLE[][2] = {
        {"+1", "👍"},
        {"thumbsup", "👍"},
        {"-1", "👎"},
        {"thumbsdown", "👎"},
        {"smile", "😄"},
        {"smiley", "😃"},
        {"grinning", "😀"},
        {"laughing", "😆"},
        {"joy", "😂"},
        {"rofl", "🤣"},
        {"slightly_smiling_face", "🙂"},
        {"wink", "😉"},
        {"blush", "😊"},
        {"heart_eyes", "😍"},
        {"thinking_face", "🤔"},
        {"thinking", "🤔"},
        {"sweat_smile", "😅"},
        {"confused", "😕"},
        {"cry", "😢"},
        {"sob", "😭"},
        {"scream", "😱"},
        {"rage", "😡"},
        {"sunglasses", "😎"},
        {"see_no_evil", "🙈"},
        {"heart", "❤️"},
        {"tada", "🎉"},
        {"rocket", "🚀"},
        {"eyes", "👀"},
        {"fire", "🔥"},
        {"100", "💯"},
        {"white_check_mark", "✅"},
        {"heavy_check_mark", "✔️"},
        {"x", "❌"},
        {"pray", "🙏"},
        {"clap", "👏"},
        {"wave", "👋"},
        {"ok_hand", "👌"},
        {"raised_hands", "🙌"},
        {"muscle", "💪"},
        {"star", "⭐"},
        {"sparkles", "✨"},
        {"warning", "⚠️"},
        {"question", "❓"},
        {"exclamation", "❗"},
        {"coffee", "☕"},
        {"beers", "🍻"},
        {"pizza", "🍕"},
        {"bulb", "💡"},
        {"point_up", "☝️"},
        {"upside_down_face", "🙃"},
        {"facepalm", "🤦"},
        {"shrug", "🤷"},
    };
    size_t len = name ? strcspn(name, ":") : 0; /* "+1::skin-tone-2": the tone is left out */
    for (size_t i = 0; len && i < sizeof TABLE / sizeof *TABLE; i++)
        if (strlen(TABLE[i][0]) == len && !strncmp(name, TABLE[i][0], len))
            return TABLE[i][1];
    return NULL;
}
