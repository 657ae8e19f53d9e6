package org.snowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * No two packages of SnowKey's production code ({@code src/main/java} of every module of the repository) depend on each
 * other, directly or through others: the lease layer does not know its operations tool, a store's plumbing
 * ({@code org.snowkey.store.*}) knows neither leases nor segments, a lease store and a segment store of one database may
 * meet only one way. A dependency is an import or a fully qualified name in code (comments and string literals do not
 * count: a class named in a string is looked up, not linked). Reads the sources, so it needs no compiled module.
 */
class PackageCyclesTest {

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);

    /** A reference to a SnowKey type: lower-case package parts, then the capitalised type name. */
    private static final Pattern TYPE_REFERENCE = Pattern.compile("\\b(org\\.snowkey(?:\\.[a-z_][\\w]*)*)\\.[A-Z]\\w*");

    private static final Pattern COMMENT_OR_STRING = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"\"\"[\\s\\S]*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])'",
            Pattern.DOTALL);

    @Test
    void noPackageOfProductionCodeIsPartOfACycle() throws IOException {
        Path root = repositoryRoot();
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(each -> each.toString().endsWith(".java") && each.toString().replace('\\', '/').contains("/src/main/java/")
                    && !each.toString().replace('\\', '/').contains("/target/")).forEach(each -> sources.put(root.relativize(each).toString(), read(each)));
        }
        assertTrue(sources.size() > 200, "found only " + sources.size() + " source files under " + root + ": is this the repository?");
        Map<Set<String>, List<String>> cycles = cycles(sources);
        assertEquals(Map.of(), cycles, "package cycles (each with the files that close it)");
    }

    /** The scan finds a cycle through a third package, through an import and a fully qualified name, and ignores comments and strings. */
    @Test
    void theScanSeesACycleWhenThereIsOne() {
        Map<String, String> sources = new TreeMap<>();
        sources.put("a/A.java", "package org.snowkey.a;\n\nimport org.snowkey.b.B;\n\nclass A { B b; }\n");
        sources.put("b/B.java", "package org.snowkey.b;\n\nclass B { org.snowkey.c.C c; }\n");
        sources.put("c/C.java", "package org.snowkey.c;\n\nimport java.util.List;\nimport org.snowkey.a.A;\n\nclass C { List<A> a; }\n");
        sources.put("d/D.java", "package org.snowkey.d;\n\n/** {@link org.snowkey.a.A} */\nclass D { String a = \"org.snowkey.a.A\"; // org.snowkey.a.A\n}\n");
        sources.put("a/E.java", "package org.snowkey.a;\n\nimport org.snowkey.d.D;\n\nclass E { D d; }\n");
        Map<Set<String>, List<String>> cycles = cycles(sources);
        assertEquals(Set.of(Set.of("org.snowkey.a", "org.snowkey.b", "org.snowkey.c")), cycles.keySet());
        assertTrue(cycles.values().iterator().next().contains("org.snowkey.c -> org.snowkey.a in c/C.java"), cycles.toString());
    }

    /** Every set of packages that reach each other, with the edges (and a file making each) inside it. */
    static Map<Set<String>, List<String>> cycles(final Map<String, String> sources) {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        sources.forEach((file, text) -> {
            Matcher declared = PACKAGE.matcher(text);
            if (!declared.find()) {
                return;
            }
            String from = declared.group(1);
            Map<String, String> targets = edges.computeIfAbsent(from, each -> new TreeMap<>());
            Matcher reference = TYPE_REFERENCE.matcher(COMMENT_OR_STRING.matcher(text).replaceAll(" "));
            while (reference.find()) {
                String to = reference.group(1);
                if (!to.equals(from)) {
                    targets.putIfAbsent(to, file);
                }
            }
        });
        Map<Set<String>, List<String>> result = new HashMap<>();
        for (Set<String> component : stronglyConnected(edges)) {
            if (component.size() > 1) {
                List<String> inside = new ArrayList<>();
                for (String from : component) {
                    edges.get(from).forEach((to, file) -> {
                        if (component.contains(to)) {
                            inside.add(from + " -> " + to + " in " + file);
                        }
                    });
                }
                result.put(component, inside);
            }
        }
        return result;
    }

    /** Tarjan's algorithm, iteratively over a small graph of packages. */
    private static List<Set<String>> stronglyConnected(final Map<String, Map<String, String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> result = new ArrayList<>();
        for (String start : edges.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, edges, index, low, stack, onStack, result);
            }
        }
        return result;
    }

    private static void connect(final String node, final Map<String, Map<String, String>> edges, final Map<String, Integer> index, final Map<String, Integer> low,
                                final Deque<String> stack, final Set<String> onStack, final List<Set<String>> result) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        for (String next : edges.getOrDefault(node, Map.of()).keySet()) {
            if (!index.containsKey(next)) {
                connect(next, edges, index, low, stack, onStack, result);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            result.add(component);
        }
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("keygen-plugin")) && Files.isDirectory(dir.resolve("registry-adapter")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
