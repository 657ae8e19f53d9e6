package org.snowkey.store.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON object (RFC 8259) from text. It accepts every object the registries' records are written as, and
 * unknown fields of any type (nested objects and arrays included, so a later writer may add fields). It rejects,
 * with a {@link MalformedJsonException} naming the position: anything but an object at the top, content after it,
 * a field name given twice (which value counts would be a guess), raw control characters in strings, bad escapes,
 * numbers JSON does not allow ({@code 01}, {@code +1}, {@code .5}, {@code NaN}) and nesting deeper than
 * {@value #MAX_DEPTH} levels (a stack overflow is no error message).
 */
final class JsonObjectParser {

    static final int MAX_DEPTH = 64;

    private final String text;

    private int position;

    JsonObjectParser(final String text) {
        this.text = text;
    }

    JsonObject parseWholeContent() {
        skipWhitespace();
        if (position >= text.length()) {
            throw fail("the content is empty, a JSON object was expected");
        }
        if (text.charAt(position) != '{') {
            throw fail("a JSON object was expected, found '" + describe(position) + "'");
        }
        JsonObject object = readObject(1);
        skipWhitespace();
        if (position < text.length()) {
            throw fail("content after the end of the object: '" + describe(position) + "'");
        }
        return object;
    }

    private Object readValue(final int depth) {
        skipWhitespace();
        if (position >= text.length()) {
            throw fail("the content ends where a value was expected");
        }
        char next = text.charAt(position);
        switch (next) {
            case '{':
                return readObject(depth + 1);
            case '[':
                return readArray(depth + 1);
            case '"':
                return readString();
            case 't':
                return readLiteral("true", Boolean.TRUE);
            case 'f':
                return readLiteral("false", Boolean.FALSE);
            case 'n':
                return readLiteral("null", JsonObject.NULL);
            default:
                if (next == '-' || (next >= '0' && next <= '9')) {
                    return readNumber();
                }
                throw fail("a value was expected, found '" + describe(position) + "'");
        }
    }

    private JsonObject readObject(final int depth) {
        checkDepth(depth);
        position++;
        Map<String, Object> fields = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            position++;
            return new JsonObject(fields);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw fail("a field name in double quotes was expected, found '" + describe(position) + "'");
            }
            int nameStart = position;
            String name = readString();
            skipWhitespace();
            expect(':');
            Object value = readValue(depth);
            if (fields.putIfAbsent(name, value) != null) {
                position = nameStart;
                throw fail("field '" + name + "' appears more than once");
            }
            skipWhitespace();
            char separator = peek();
            position++;
            if (separator == '}') {
                return new JsonObject(fields);
            }
            if (separator != ',') {
                position--;
                throw fail("',' or '}' was expected after field '" + name + "', found '" + describe(position) + "'");
            }
        }
    }

    private List<Object> readArray(final int depth) {
        checkDepth(depth);
        position++;
        List<Object> values = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            position++;
            return values;
        }
        while (true) {
            values.add(readValue(depth));
            skipWhitespace();
            char separator = peek();
            position++;
            if (separator == ']') {
                return values;
            }
            if (separator != ',') {
                position--;
                throw fail("',' or ']' was expected in an array, found '" + describe(position) + "'");
            }
        }
    }

    private String readString() {
        position++;
        StringBuilder value = new StringBuilder();
        while (true) {
            if (position >= text.length()) {
                throw fail("the content ends inside a string");
            }
            char next = text.charAt(position++);
            if (next == '"') {
                return value.toString();
            }
            if (next < 0x20) {
                position--;
                throw fail(String.format("control character U+%04X must be escaped inside a string", (int) next));
            }
            if (next != '\\') {
                value.append(next);
                continue;
            }
            if (position >= text.length()) {
                throw fail("the content ends inside an escape");
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"':
                case '\\':
                case '/':
                    value.append(escaped);
                    break;
                case 'b':
                    value.append('\b');
                    break;
                case 'f':
                    value.append('\f');
                    break;
                case 'n':
                    value.append('\n');
                    break;
                case 'r':
                    value.append('\r');
                    break;
                case 't':
                    value.append('\t');
                    break;
                case 'u':
                    value.append(readHexCharacter());
                    break;
                default:
                    position -= 2;
                    throw fail("unknown escape '\\" + escaped + "' inside a string");
            }
        }
    }

    private char readHexCharacter() {
        if (position + 4 > text.length()) {
            throw fail("the content ends inside a \\u escape");
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(position), 16);
            if (digit < 0 || text.charAt(position) > 'f') {
                throw fail("a hexadecimal digit was expected in a \\u escape, found '" + describe(position) + "'");
            }
            code = code * 16 + digit;
            position++;
        }
        return (char) code;
    }

    private JsonNumber readNumber() {
        int start = position;
        boolean whole = true;
        if (peek() == '-') {
            position++;
        }
        if (peek() == '0') {
            position++;
            if (isDigit(peek())) {
                throw fail("a number must not start with 0 followed by digits");
            }
        } else if (!skipDigits()) {
            throw fail("a digit was expected in a number, found '" + describe(position) + "'");
        }
        if (peek() == '.') {
            whole = false;
            position++;
            if (!skipDigits()) {
                throw fail("a digit was expected after the decimal point, found '" + describe(position) + "'");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            whole = false;
            position++;
            if (peek() == '+' || peek() == '-') {
                position++;
            }
            if (!skipDigits()) {
                throw fail("a digit was expected in the exponent, found '" + describe(position) + "'");
            }
        }
        return new JsonNumber(text.substring(start, position), whole);
    }

    private Object readLiteral(final String literal, final Object value) {
        if (!text.startsWith(literal, position)) {
            throw fail("a value was expected, found '" + describe(position) + "'");
        }
        position += literal.length();
        return value;
    }

    private boolean skipDigits() {
        int start = position;
        while (isDigit(peek())) {
            position++;
        }
        return position > start;
    }

    private static boolean isDigit(final char c) {
        return c >= '0' && c <= '9';
    }

    private void skipWhitespace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            position++;
        }
    }

    private void expect(final char expected) {
        if (peek() != expected) {
            throw fail("'" + expected + "' was expected, found '" + describe(position) + "'");
        }
        position++;
    }

    /** The next character, or U+0000 at the end (never valid where a structural character is expected). */
    private char peek() {
        return position < text.length() ? text.charAt(position) : '\0';
    }

    private void checkDepth(final int depth) {
        if (depth > MAX_DEPTH) {
            throw fail("nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    /** Up to 20 characters from {@code at}, or "the end" past it: enough to locate the damage without echoing a huge value. */
    private String describe(final int at) {
        if (at >= text.length()) {
            return "the end";
        }
        return text.length() - at > 20 ? text.substring(at, at + 20) + "..." : text.substring(at);
    }

    private MalformedJsonException fail(final String problem) {
        return new MalformedJsonException(problem, position);
    }
}
