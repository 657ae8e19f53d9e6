package org.snowkey.keygen.modelcheck;

import java.util.List;

/** What one model-checked operation issued: the ids, in the order handed out, and the stream they came from. */
public record StreamIds(String stream, List<Long> ids) {
}
