import { hostileInputSuite } from "./hostile-input/suite";

hostileInputSuite(3, 3);
