package org.snowkey.configcheck;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The known-problem scenarios the checker can leave out ({@code -Dsnowkey.config-check.without=NAME,...}), so that it
 * runs green on a main where a fix is pending. Each names what it adds to the generated deployments.
 */
enum Scenario {

    /** The id space of a {@code sequence-scope: table} IMPROVED_SNOWFLAKE spans all its tables; short idleness between inserts. Without: per table. */
    TABLES_SHARE_GENERATOR("tables-share-generator"),

    /** In Cluster mode, the Spring beans' settings name ZooKeeper without a namespace, which the YAML key generators inherit. */
    BEAN_BESIDE_CLUSTER_YAML("bean-beside-cluster-yaml"),

    /** A rule change may move a table to a key generator with another stream or sequence on the same store (table to global scope, another pool). */
    RULE_CHANGE_OTHER_STREAM("rule-change-other-stream"),

    /** After LeaseCli release or repair-acl on a pool, a redeploy with another id layout (a moved epoch) joins the pool. */
    OPERATOR_DROPS_LAYOUT("operator-drops-layout"),

    /** Injected store faults also hit the layout probe and metadata reads. */
    PROBE_FAULTS("probe-faults");

    private final String label;

    Scenario(final String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** Every scenario but those named in {@code without} (comma-separated labels). */
    static Set<Scenario> allBut(final String without) {
        EnumSet<Scenario> result = EnumSet.allOf(Scenario.class);
        if (without == null || without.isBlank()) {
            return result;
        }
        for (String each : without.split(",")) {
            String name = each.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            Scenario found = Arrays.stream(values()).filter(scenario -> scenario.label.equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("snowkey.config-check.without: unknown scenario '" + name + "'; known: "
                            + Arrays.stream(values()).map(Scenario::label).collect(Collectors.joining(", "))));
            result.remove(found);
        }
        return result;
    }
}
