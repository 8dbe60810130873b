package dev.nqueens.settings;

import dev.nqueens.failure.InvalidInputException;

/** A setting the product cannot use, named by its key (exit 2, before anything is opened). */
public final class InvalidSettingException extends InvalidInputException {

    public InvalidSettingException(String message) {
        super(message);
    }

    /** {@code setting KEY: why}. */
    static InvalidSettingException of(String key, String why) {
        return new InvalidSettingException("setting " + key + ": " + why);
    }

    /** {@code invalid setting KEY=VALUE: what is allowed}. */
    static InvalidSettingException of(String key, Object value, String allowed) {
        return new InvalidSettingException("invalid setting " + key + "=" + value + ": " + allowed);
    }
}
