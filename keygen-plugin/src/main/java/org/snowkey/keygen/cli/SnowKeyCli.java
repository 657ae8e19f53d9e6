package org.snowkey.keygen.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.layout.DecodedId;
import org.snowkey.keygen.layout.IdLayout;

/**
 * {@code java -jar snowkey-keygen-plugin.jar decode [--worker-id-bits N] [--sequence-low-bits L] [--epoch E] <id>...}
 */
public final class SnowKeyCli {

    private static final String USAGE = "usage: java -jar snowkey-keygen-plugin.jar decode [--worker-id-bits N] [--sequence-low-bits L] [--epoch E] <id>...";

    private SnowKeyCli() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit code. */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length < 2 || !"decode".equals(args[0])) {
            err.println(USAGE);
            return 2;
        }
        Properties props = new Properties();
        List<String> ids = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--")) {
                String name = arg.substring(2);
                if (!Set.of(PropertyNames.WORKER_ID_BITS, PropertyNames.SEQUENCE_LOW_BITS, PropertyNames.EPOCH).contains(name) || i + 1 >= args.length) {
                    err.println("unknown or incomplete option " + arg + "\n" + USAGE);
                    return 2;
                }
                props.setProperty(name, args[++i]);
            } else {
                ids.add(arg);
            }
        }
        IdLayout layout;
        try {
            layout = GeneratorSettings.parse(props, Set.of(), System.currentTimeMillis()).layout();
        } catch (final IllegalArgumentException ex) {
            err.println(ex.getMessage());
            return 2;
        }
        int exit = 0;
        for (String each : ids) {
            try {
                DecodedId decoded = layout.decode(Long.parseLong(each));
                out.println(decoded.id() + "\ttimestamp=" + decoded.timestamp() + "\tworker-id=" + decoded.workerId() + "\tsequence=" + decoded.sequence());
            } catch (final IllegalArgumentException ex) {
                err.println(each + ": not a SnowKey id (" + ex.getMessage() + ")");
                exit = 1;
            }
        }
        return exit;
    }
}
