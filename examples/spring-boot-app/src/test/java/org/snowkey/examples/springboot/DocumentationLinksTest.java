package org.snowkey.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link of README.md and docs/*.md points at a file of the repository, and a link to a section of a
 * Markdown file at a heading that file has (the anchor GitHub derives from it). The README's manual moved into docs/,
 * so a section that moves again, or a file renamed, must take its links along.
 */
class DocumentationLinksTest {

    /** Tests run in the module's directory: examples/<module>. */
    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    /** {@code [text](target)}; a target has no spaces or parentheses in these files. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^()\\s]+)\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsResolves() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(each -> each.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertThat(pages).hasSizeGreaterThan(5);
        List<String> broken = new ArrayList<>();
        int checked = 0;
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path page : pages) {
            for (String target : links(Files.readString(page, StandardCharsets.UTF_8))) {
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue; // https:, mailto: ...
                }
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (anchor != null && resolved.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(resolved, DocumentationLinksTest::anchorsOf).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(30);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anchorsAreDerivedAsGitHubDerivesThem() {
        assertThat(anchor("Dense keys: `SNOWKEY_SEGMENT`")).isEqualTo("dense-keys-snowkey_segment");
        assertThat(anchor("Database table (`lease-registry: jdbc`)")).isEqualTo("database-table-lease-registry-jdbc");
        assertThat(anchor("The path of one key and one range")).isEqualTo("the-path-of-one-key-and-one-range");
    }

    /** Link targets outside fenced code blocks. */
    private static List<String> links(final String markdown) {
        List<String> result = new ArrayList<>();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher matcher = LINK.matcher(line);
            while (matcher.find()) {
                result.add(matcher.group(1));
            }
        }
        return result;
    }

    private static Set<String> anchorsOf(final Path markdown) {
        Set<String> result = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        try {
            for (String line : Files.readAllLines(markdown, StandardCharsets.UTF_8)) {
                if (FENCE.matcher(line).find()) {
                    inFence = !inFence;
                    continue;
                }
                Matcher heading = HEADING.matcher(line);
                if (!inFence && heading.matches()) {
                    String base = anchor(heading.group(1));
                    int count = seen.merge(base, 1, Integer::sum);
                    result.add(count == 1 ? base : base + "-" + (count - 1));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return result;
    }

    /** GitHub's anchor of a heading: lower case, punctuation but {@code -} and {@code _} dropped, each space a {@code -}. */
    private static String anchor(final String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
