package org.snowkey.consumers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the consumer projects: one small Maven project per case, each with no parent and no dependency management
 * (one case imports snowkey-bom), declaring ShardingSphere and SnowKey the way the README tells a user to, plus an
 * aggregator that builds them all in one Maven run. The cases share one test source directory; the test reads
 * the case's line and lease backend from system properties the case pom sets. The Spring Boot cases are Boot
 * applications as a user writes them (Boot's parent or Boot's BOM, then snowkey-spring-boot-starter) and share a
 * second test source directory.
 *
 * <p>Arguments: the output directory, the shared test source directory, SnowKey's version, the Spring Boot cases'
 * test source directory.
 */
public final class ConsumerCases {

    /** What ShardingSphere-JDBC alone resolves for the libraries SnowKey could clash with, measured per line. */
    private record Line(String version, String jdbcArtifact, String adapter, String hikari, List<String> ownViolations) {
    }

    private static final List<String> SHARED = List.of("org.slf4j:slf4j-api", "commons-logging:commons-logging");

    private static final List<String> GUAVA = List.of("com.google.guava:guava", "org.checkerframework:checker-qual", "com.google.errorprone:error_prone_annotations");

    private static final List<String> JACKSON_210 = List.of("com.fasterxml.jackson.core:jackson-core", "com.fasterxml.jackson.core:jackson-annotations",
            "com.fasterxml.jackson.core:jackson-databind", "commons-lang:commons-lang");

    /**
     * requireUpperBoundDeps fails on a project with nothing but each line's shardingsphere-jdbc: these are the libraries
     * it names there, ShardingSphere's own mismatches. They are left out of the rule for that line only; every
     * other library, and these on the other lines, must resolve to the highest version any path asks for.
     */
    private static final Map<String, Line> LINES = Map.of(
            "5.1.2", new Line("5.1.2", "shardingsphere-jdbc-core", "snowkey-keygen-shardingsphere-5.1", "3.4.2", concat(SHARED, GUAVA, JACKSON_210)),
            "5.2.1", new Line("5.2.1", "shardingsphere-jdbc-core", "snowkey-keygen-shardingsphere-5.2", "3.4.2", concat(SHARED, GUAVA, JACKSON_210)),
            "5.3.2", new Line("5.3.2", "shardingsphere-jdbc-core", "snowkey-keygen-shardingsphere-5.3", "4.0.3", concat(SHARED, GUAVA, JACKSON_210)),
            "5.4.1", new Line("5.4.1", "shardingsphere-jdbc-core", "snowkey-keygen-shardingsphere-5.4", "4.0.3", concat(SHARED, List.of("org.yaml:snakeyaml"))),
            "5.5.0", new Line("5.5.0", "shardingsphere-jdbc", null, "4.0.3", SHARED),
            "5.5.1", new Line("5.5.1", "shardingsphere-jdbc", null, "4.0.3", SHARED),
            "5.5.2", new Line("5.5.2", "shardingsphere-jdbc", null, "4.0.3", concat(SHARED, GUAVA)));

    /**
     * The Curator an application declares for ZooKeeper leases, on every line (README, "Dependencies"): the one
     * ShardingSphere-Proxy 5.5.2 ships. The Curator 5.1.0 that 5.1 to 5.3 bring lacks
     * {@code CuratorFrameworkFactory.Builder.zkClientConfig}, which the store calls (NoSuchMethodError at the first
     * lease); Curator 5.9.0 brings ZooKeeper 3.9.3 and with it commons-io 2.17, above the 2.11 that 5.4.1's Calcite
     * resolves, which requireUpperBoundDeps rejects.
     */
    private static final String CURATOR = "5.7.0";

    /**
     * @param store the SnowKey lease artifact added to the plugin, or null for the plugin alone
     * @param lease static (worker-id: 7), jdbc (a lease table in an H2 file), zookeeper (curator-test's server) or etcd
     *              (a real etcd server the test starts)
     */
    private record Case(String name, String line, String store, String lease, boolean snowKeyFirst, boolean bom) {
    }

    /**
     * A covering subset of lines x artifact sets x declaration order: every line runs, every artifact set runs on
     * several lines, both orders on several lines, every lease backend on old and new lines, and the README's own
     * block (5.5.2, ShardingSphere first, then the plugin and snowkey-registry-adapter) as the first case.
     */
    static final List<Case> CASES = List.of(
            new Case("readme-5.5.2", "5.5.2", "snowkey-registry-adapter", "static", false, false),
            new Case("5.5.2-lease-jdbc-snowkey-first", "5.5.2", "snowkey-lease-jdbc", "jdbc", true, false),
            new Case("5.5.2-lease-zookeeper", "5.5.2", "snowkey-lease-zookeeper", "zookeeper", false, false),
            new Case("5.5.2-lease-etcd", "5.5.2", "snowkey-lease-etcd", "etcd", false, false),
            new Case("5.5.2-bom-registry-adapter", "5.5.2", "snowkey-registry-adapter", "jdbc", true, true),
            new Case("5.5.1-plugin-snowkey-first", "5.5.1", null, "static", true, false),
            new Case("5.5.0-registry-adapter-jdbc", "5.5.0", "snowkey-registry-adapter", "jdbc", false, false),
            new Case("5.4.1-lease-zookeeper-snowkey-first", "5.4.1", "snowkey-lease-zookeeper", "zookeeper", true, false),
            new Case("5.3.2-registry-adapter-zookeeper", "5.3.2", "snowkey-registry-adapter", "zookeeper", false, false),
            new Case("5.2.1-lease-jdbc-snowkey-first", "5.2.1", "snowkey-lease-jdbc", "jdbc", true, false),
            new Case("5.1.2-lease-zookeeper-snowkey-first", "5.1.2", "snowkey-lease-zookeeper", "zookeeper", true, false),
            new Case("5.1.2-plugin", "5.1.2", null, "static", false, false));

    /**
     * A Spring Boot application on ShardingSphere-JDBC 5.5.2 with snowkey-spring-boot-starter and a JDBC lease set by
     * {@code snowkey.*} properties.
     *
     * @param bootParent true: spring-boot-starter-parent as the parent; false: spring-boot-dependencies imported
     * @param ownViolations what requireUpperBoundDeps names on the same project without SnowKey (Boot, its JDBC
     *                      starter and shardingsphere-jdbc alone), measured; left out of the rule for this case only
     */
    private record SpringCase(String name, String bootVersion, boolean bootParent, List<String> ownViolations) {
    }

    private static final String SPRING_SHARDINGSPHERE = "5.5.2";

    static final List<SpringCase> SPRING_CASES = List.of(
            new SpringCase("boot-3.5.7-starter-lease-jdbc", "3.5.7", true, GUAVA),
            new SpringCase("boot-4.0.7-starter-lease-jdbc", "4.0.7", false, GUAVA));

    private ConsumerCases() {
    }

    public static void main(final String[] args) throws IOException {
        Path output = Paths.get(args[0]);
        Path testSources = Paths.get(args[1]).toAbsolutePath();
        String version = args[2];
        Path springTestSources = Paths.get(args[3]).toAbsolutePath();
        StringBuilder modules = new StringBuilder();
        for (Case each : CASES) {
            Path directory = output.resolve(each.name());
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("pom.xml"), casePom(each, version, testSources), StandardCharsets.UTF_8);
            modules.append("        <module>").append(each.name()).append("</module>\n");
        }
        for (SpringCase each : SPRING_CASES) {
            Path directory = output.resolve(each.name());
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("pom.xml"), springCasePom(each, version, springTestSources), StandardCharsets.UTF_8);
            modules.append("        <module>").append(each.name()).append("</module>\n");
        }
        Files.writeString(output.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Generated by ConsumerCases: builds every consumer case in one Maven run. The cases do not inherit from it. -->
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                    <modelVersion>4.0.0</modelVersion>
                    <groupId>org.snowkey.consumers</groupId>
                    <artifactId>consumer-cases</artifactId>
                    <version>1</version>
                    <packaging>pom</packaging>
                    <modules>
                %s    </modules>
                </project>
                """.formatted(modules), StandardCharsets.UTF_8);
        // Two cases at a time (-T 2): most of a case is waiting on its own test JVM, which starts ShardingSphere, and
        // the cases share nothing but the local repository (each works in its own target directory, H2 files and
        // ZooKeeper port). One Maven run resolves the plugins and the shared libraries once for all of them.
        Files.writeString(output.resolve("invoker.properties"), "invoker.goals=-T 2 verify\ninvoker.failureBehavior=fail-at-end\n", StandardCharsets.UTF_8);
    }

    private static String casePom(final Case each, final String version, final Path testSources) {
        Line line = LINES.get(each.line());
        String snowKeyVersion = each.bom() ? "" : "\n            <version>" + version + "</version>";
        StringBuilder snowKey = new StringBuilder(dependency("org.snowkey", "snowkey-keygen-plugin", snowKeyVersion, ""));
        if (line.adapter() != null) {
            snowKey.append(dependency("org.snowkey", line.adapter(), snowKeyVersion, ""));
        }
        if (each.store() != null) {
            snowKey.append(dependency("org.snowkey", each.store(), snowKeyVersion, ""));
        }
        String shardingSphere = dependency("org.apache.shardingsphere", line.jdbcArtifact(), "\n            <version>" + line.version() + "</version>",
                line.version().startsWith("5.5.") ? UNSERVED_TEST_ARTIFACTS : "");
        StringBuilder application = new StringBuilder();
        application.append(dependency("com.h2database", "h2", "\n            <version>2.3.232</version>", ""));
        application.append(dependency("com.zaxxer", "HikariCP", "\n            <version>" + line.hikari() + "</version>", ""));
        if ("zookeeper".equals(each.lease())) {
            // ZooKeeper 3.9 brings logback-core 1.2.10: beside the logback-classic 1.2.12 of ShardingSphere 5.4.1 it
            // fails at start-up (NoSuchMethodError OptionHelper.isNotEmtpy). Logging is the application's choice.
            String noLogback = "\n                <exclusion>\n                    <groupId>ch.qos.logback</groupId>\n"
                    + "                    <artifactId>*</artifactId>\n                </exclusion>";
            application.append(dependency("org.apache.curator", "curator-framework", "\n            <version>" + CURATOR + "</version>",
                    "\n            <exclusions>" + noLogback + "\n            </exclusions>"));
            application.append(dependency("org.apache.curator", "curator-test", "\n            <version>" + CURATOR + "</version>\n            <scope>test</scope>",
                    "\n            <exclusions>\n                <exclusion>\n                    <groupId>org.junit.jupiter</groupId>\n"
                            + "                    <artifactId>*</artifactId>\n                </exclusion>" + noLogback + "\n            </exclusions>"));
        }
        application.append(dependency("org.slf4j", "slf4j-simple", "\n            <version>1.7.36</version>\n            <scope>test</scope>", ""));
        application.append(dependency("org.junit.jupiter", "junit-jupiter", "\n            <version>5.12.2</version>\n            <scope>test</scope>", ""));
        String bom = each.bom() ? importedBom("org.snowkey", "snowkey-bom", "<version>" + version + "</version>") : "";
        String dependencies = each.snowKeyFirst() ? snowKey + shardingSphere + application : shardingSphere + snowKey + application;
        String caseProperties = """
                                    <systemPropertyVariables>
                                        <case.line>%s</case.line>
                                        <case.lease>%s</case.lease>
                                        <case.store>%s</case.store>
                                        <case.tree>${project.build.directory}/dependency-tree.txt</case.tree>
                                    </systemPropertyVariables>
                """.formatted(line.version(), each.lease(), each.store() == null ? "" : each.store());
        return projectPom("a user's project, SnowKey declared " + (each.snowKeyFirst() ? "before" : "after") + " ShardingSphere " + line.version(), "",
                each.name(), bom, dependencies, testSources, "ShardingSphere " + line.version() + "'s own mismatches (measured on shardingsphere-jdbc alone)",
                line.ownViolations(), caseProperties, each.store() != null && OWN_LIBRARIES_ONLY.contains(each.store()) ? VERBOSE_TREE : "");
    }

    private static String springCasePom(final SpringCase each, final String version, final Path testSources) {
        String bootVersion = "<version>" + each.bootVersion() + "</version>";
        String parent = !each.bootParent() ? "" : """
                    <parent>
                        <groupId>org.springframework.boot</groupId>
                        <artifactId>spring-boot-starter-parent</artifactId>
                        %s
                        <relativePath/>
                    </parent>
                """.formatted(bootVersion);
        String bom = each.bootParent() ? "" : importedBom("org.springframework.boot", "spring-boot-dependencies", bootVersion);
        String dependencies = dependency("org.snowkey", "snowkey-spring-boot-starter", "\n            <version>" + version + "</version>", "")
                + dependency("org.springframework.boot", "spring-boot-starter-jdbc", "", "")
                + dependency("org.apache.shardingsphere", "shardingsphere-jdbc", "\n            <version>" + SPRING_SHARDINGSPHERE + "</version>", UNSERVED_TEST_ARTIFACTS)
                + dependency("com.h2database", "h2", "", "")
                + dependency("org.junit.jupiter", "junit-jupiter", "\n            <scope>test</scope>", "");
        return projectPom("a user's Spring Boot " + each.bootVersion() + " application (Boot's " + (each.bootParent() ? "parent" : "BOM") + "), ShardingSphere "
                + SPRING_SHARDINGSPHERE, parent, each.name(), bom, dependencies, testSources,
                "Spring Boot " + each.bootVersion() + " with ShardingSphere " + SPRING_SHARDINGSPHERE + "'s own mismatches (measured without SnowKey)",
                each.ownViolations(), "", "");
    }

    /**
     * One case's project, the same for every kind of case: plugin versions pinned (no parent of SnowKey's supplies
     * them), the shared test sources, and requireUpperBoundDeps with the host's own measured mismatches left out.
     *
     * @param what what the case is, for the generated comment
     * @param parent a {@code <parent>} block, or empty
     * @param dependencyManagement an imported BOM block, or empty
     * @param enforcerComment what {@code ownViolations} are, for the comment above them
     * @param surefireSettings extra lines of Surefire's configuration, or empty
     * @param extraPlugins more {@code <plugin>} blocks, or empty
     */
    private static String projectPom(final String what, final String parent, final String artifactId, final String dependencyManagement,
                                     final String dependencies, final Path testSources, final String enforcerComment, final List<String> ownViolations,
                                     final String surefireSettings, final String extraPlugins) {
        StringBuilder excludes = new StringBuilder();
        ownViolations.forEach(library -> excludes.append("                                    <exclude>").append(library).append("</exclude>\n"));
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Generated by ConsumerCases (examples/consumers): %s. -->
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                    <modelVersion>4.0.0</modelVersion>
                %s    <groupId>org.snowkey.consumers</groupId>
                    <artifactId>%s</artifactId>
                    <version>1</version>
                    <properties>
                        <maven.compiler.release>17</maven.compiler.release>
                        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                    </properties>
                %s    <dependencies>
                %s    </dependencies>
                    <build>
                        <testSourceDirectory>%s</testSourceDirectory>
                        <plugins>
                            <plugin>
                                <groupId>org.apache.maven.plugins</groupId>
                                <artifactId>maven-compiler-plugin</artifactId>
                                <version>3.14.0</version>
                            </plugin>
                            <plugin>
                                <groupId>org.apache.maven.plugins</groupId>
                                <artifactId>maven-resources-plugin</artifactId>
                                <version>3.3.1</version>
                            </plugin>
                            <plugin>
                                <groupId>org.apache.maven.plugins</groupId>
                                <artifactId>maven-jar-plugin</artifactId>
                                <version>3.4.2</version>
                            </plugin>
                            <plugin>
                                <groupId>org.apache.maven.plugins</groupId>
                                <artifactId>maven-enforcer-plugin</artifactId>
                                <version>3.5.0</version>
                                <executions>
                                    <execution>
                                        <id>no-clash</id>
                                        <goals>
                                            <goal>enforce</goal>
                                        </goals>
                                        <configuration>
                                            <rules>
                                                <requireUpperBoundDeps>
                                                    <!-- %s. -->
                                                    <excludes>
                %s                                    </excludes>
                                                </requireUpperBoundDeps>
                                            </rules>
                                        </configuration>
                                    </execution>
                                </executions>
                            </plugin>
                            <plugin>
                                <groupId>org.apache.maven.plugins</groupId>
                                <artifactId>maven-surefire-plugin</artifactId>
                                <version>3.5.3</version>
                                <configuration>
                                    <trimStackTrace>false</trimStackTrace>
                %s                </configuration>
                            </plugin>
                %s        </plugins>
                    </build>
                </project>
                """.formatted(what, parent, artifactId, dependencyManagement, dependencies, testSources, enforcerComment, excludes, surefireSettings, extraPlugins);
    }

    /**
     * The SnowKey artifacts that bring no third-party library at all (etcd through the JDK's HttpClient): their cases
     * check the verbose dependency tree, omitted nodes included, so that not even a version Maven dropped could move
     * one of the host's libraries.
     */
    private static final java.util.Set<String> OWN_LIBRARIES_ONLY = java.util.Set.of("snowkey-lease-etcd");

    /** Writes the verbose dependency tree (nodes omitted for duplicates and conflicts included) before the tests read it. */
    private static final String VERBOSE_TREE = """
                        <plugin>
                            <groupId>org.apache.maven.plugins</groupId>
                            <artifactId>maven-dependency-plugin</artifactId>
                            <version>3.8.1</version>
                            <executions>
                                <execution>
                                    <id>verbose-tree</id>
                                    <phase>generate-test-resources</phase>
                                    <goals>
                                        <goal>tree</goal>
                                    </goals>
                                    <configuration>
                                        <verbose>true</verbose>
                                        <outputFile>${project.build.directory}/dependency-tree.txt</outputFile>
                                    </configuration>
                                </execution>
                            </executions>
                        </plugin>
            """;

    /** A {@code <dependencyManagement>} importing one BOM ({@code version} is the whole version element). */
    private static String importedBom(final String groupId, final String artifactId, final String version) {
        return """
                    <dependencyManagement>
                        <dependencies>
                            <dependency>
                                <groupId>%s</groupId>
                                <artifactId>%s</artifactId>
                                %s
                                <type>pom</type>
                                <scope>import</scope>
                            </dependency>
                        </dependencies>
                    </dependencyManagement>
                """.formatted(groupId, artifactId, version);
    }

    /** 5.5.0 to 5.5.2 declare test artifacts that Maven Central does not serve; a user excludes them (docs/shardingsphere.md, "ShardingSphere versions"). */
    private static final String UNSERVED_TEST_ARTIFACTS = "\n            <exclusions>\n"
            + exclusion("shardingsphere-test-util") + exclusion("shardingsphere-test-common") + exclusion("shardingsphere-test-fixture-jdbc")
            + exclusion("shardingsphere-test-fixture-database") + "            </exclusions>";

    private static String exclusion(final String artifactId) {
        return "                <exclusion>\n                    <groupId>org.apache.shardingsphere</groupId>\n                    <artifactId>" + artifactId
                + "</artifactId>\n                </exclusion>\n";
    }

    private static String dependency(final String groupId, final String artifactId, final String versionAndScope, final String exclusions) {
        return "        <dependency>\n            <groupId>" + groupId + "</groupId>\n            <artifactId>" + artifactId + "</artifactId>" + versionAndScope
                + exclusions + "\n        </dependency>\n";
    }

    @SafeVarargs
    private static List<String> concat(final List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> list : lists) {
            all.addAll(list);
        }
        return all;
    }
}
