import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".data/", "migrations/", "dist/", "client/dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["**/*.js"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  // Core's types say what its data is: an assertion to `never` (accepted anywhere) or through `unknown` (accepted
  // from anything) tells the compiler to stop checking. A value whose type cannot be known gets a single assertion
  // where it is read, or a type guard; one that must stay says why in an eslint-disable-next-line comment.
  {
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "TSAsExpression[typeAnnotation.type='TSNeverKeyword']", message: "No `as never` in core: type the value, or narrow it." },
        {
          selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
          message: "No `as unknown as` in core: type the value where it is made, or narrow it.",
        },
      ],
    },
  },
);
