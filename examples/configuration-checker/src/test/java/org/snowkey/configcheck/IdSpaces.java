package org.snowkey.configcheck;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The keys each id space of one deployment has received; the first key seen twice in a space is the deployment's failure. */
final class IdSpaces {

    private final Map<String, Map<Long, String>> issued = new HashMap<>();

    private String firstDuplicate;

    private long keys;

    /**
     * Records a key in each of its spaces.
     *
     * @param where who issued it, for the failure message
     */
    void record(final long key, final Set<String> spaces, final String where) {
        keys++;
        for (String each : spaces) {
            String before = issued.computeIfAbsent(each, name -> new HashMap<>()).putIfAbsent(key, where);
            if (before != null && firstDuplicate == null) {
                firstDuplicate = "key " + key + " twice in id space '" + each + "': first by " + before + ", again by " + where;
            }
        }
    }

    String firstDuplicate() {
        return firstDuplicate;
    }

    long keys() {
        return keys;
    }

    Set<String> names() {
        return new HashSet<>(issued.keySet());
    }
}
